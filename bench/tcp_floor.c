/*
 * tcp_floor: the least time one small message each way takes over TCP between two hosts, with
 * no SHMEM library in the way: the floor under which no library that moves its messages through
 * the kernel's TCP (UCX's tcp transport included) can go.
 *
 * Plain C and POSIX sockets: run it on two hosts (bench/compare_oshmem.sh --hosts runs it between
 * two network-namespace hosts of scripts/netns, in every rep), the same options on both:
 *
 *   host B:  tcp_floor --listen [--port P] [options]
 *   host A:  tcp_floor --connect ADDRESS_OF_B [--port P] [options]
 *
 * One TCP connection, TCP_NODELAY, messages of --size bytes (default 8). Tests, each timed over
 * --iters iterations after a warm-up, the median of 16 chunks:
 *   tcp_pingpong_spin   A sends, B answers, A receives the answer; half the round trip. A receiver
 *                   polls its socket with non-blocking recv().
 *   tcp_pingpong_epoll  the same, but a receiver asks epoll_wait(timeout 0) before each recv(), as
 *                   UCX's tcp transport does in every pass of worker progress.
 *   tcp_exchange_spin   both send, then both receive the other's message: the step of a 2-PE
 *                   barrier, reduction or fcollect; time per step.
 *   tcp_exchange_epoll  the same with epoll_wait before recv().
 *
 * Output (host A, stdout): the CSV of the other benchmarks, a header then one line per test:
 *     test,size,value,unit,iters
 * value in microseconds (lower is better). stderr ends with "tcp_floor: done: N points, M failed
 * verification" (every message carries its iteration number, which the receiver checks).
 */
#define _GNU_SOURCE

#include "bench_common.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_SIZE 4096

enum test_id { PINGPONG_SPIN, PINGPONG_EPOLL, EXCHANGE_SPIN, EXCHANGE_EPOLL, NTESTS };
static const char *const test_names[NTESTS] = {"tcp_pingpong_spin", "tcp_pingpong_epoll",
                                               "tcp_exchange_spin", "tcp_exchange_epoll"};

struct link {
    int fd;
    int epfd;
    size_t size;
    long failures;
};

static void die(const char *what)
{
    fprintf(stderr, "tcp_floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void send_all(struct link *l, long seq)
{
    char buf[MAX_SIZE] = {0};
    memcpy(buf, &seq, sizeof seq < l->size ? sizeof seq : l->size);
    size_t done = 0;
    while (done < l->size) {
        ssize_t n = send(l->fd, buf + done, l->size - done, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            die("send");
        if (n > 0)
            done += (size_t)n;
    }
}

/* Receives one message, polling; with use_epoll, epoll_wait(0) says when to call recv(). */
static void recv_one(struct link *l, int use_epoll, long seq)
{
    char buf[MAX_SIZE];
    size_t done = 0;
    while (done < l->size) {
        if (use_epoll) {
            struct epoll_event ev;
            int n = epoll_wait(l->epfd, &ev, 1, 0);
            if (n < 0 && errno != EINTR)
                die("epoll_wait");
            if (n <= 0)
                continue;
        }
        ssize_t n = recv(l->fd, buf + done, l->size - done, MSG_DONTWAIT);
        if (n == 0) {
            fprintf(stderr, "tcp_floor: the other host closed the connection\n");
            exit(1);
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            die("recv");
        if (n > 0)
            done += (size_t)n;
    }
    long got = 0;
    memcpy(&got, buf, sizeof got < l->size ? sizeof got : l->size);
    long want = seq;
    if (l->size < sizeof want) { /* only the low bytes travel */
        got &= (long)((1UL << (8 * l->size)) - 1);
        want &= (long)((1UL << (8 * l->size)) - 1);
    }
    if (got != want)
        l->failures++;
}

struct run {
    struct link *link;
    int test;
    int initiator; /* host A */
    long next;     /* the next message's number */
};

static void run_iters(void *p, long n)
{
    struct run *r = p;
    int use_epoll = r->test == PINGPONG_EPOLL || r->test == EXCHANGE_EPOLL;
    for (long i = 0; i < n; i++, r->next++) {
        if (r->test == PINGPONG_SPIN || r->test == PINGPONG_EPOLL) {
            if (r->initiator) {
                send_all(r->link, r->next);
                recv_one(r->link, use_epoll, r->next);
            } else {
                recv_one(r->link, use_epoll, r->next);
                send_all(r->link, r->next);
            }
        } else {
            send_all(r->link, r->next);
            recv_one(r->link, use_epoll, r->next);
        }
    }
}

static int open_link(const char *address, int port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    if (address == NULL) { /* --listen */
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 1) != 0)
            die("bind/listen");
        int c = accept(fd, NULL, NULL);
        if (c < 0)
            die("accept");
        close(fd);
        fd = c;
    } else {
        if (inet_pton(AF_INET, address, &a.sin_addr) != 1) {
            fprintf(stderr, "tcp_floor: %s is not an IPv4 address\n", address);
            exit(2);
        }
        /* The other host may not listen yet: try for 10 s. */
        double give_up = now_sec() + 10.0;
        while (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            if (now_sec() > give_up)
                die("connect");
            close(fd);
            fd = socket(AF_INET, SOCK_STREAM, 0);
            if (fd < 0)
                die("socket");
            usleep(20000);
        }
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tcp_floor --listen | --connect ADDRESS  [options]\n"
               "  -l, --listen         wait for the other host (run it there first)\n"
               "  -c, --connect ADDR   the listening host's IPv4 address; prints the CSV\n"
               "  -p, --port N         TCP port (default 7470)\n"
               "  -s, --size N         bytes per message (default 8, at most 4096)\n"
               "  -i, --iters N        timed iterations per test (default 20000)\n"
               "  -t, --tests LIST     comma-separated, or 'all' (default all):\n"
               "                       tcp_pingpong_spin,tcp_pingpong_epoll,tcp_exchange_spin,\n"
               "                       tcp_exchange_epoll\n"
               "Both hosts take the same --size, --iters and --tests.\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"listen", no_argument, NULL, 'l'},      {"connect", required_argument, NULL, 'c'},
        {"port", required_argument, NULL, 'p'},  {"size", required_argument, NULL, 's'},
        {"iters", required_argument, NULL, 'i'}, {"tests", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
    };
    int listen_mode = 0, tests[NTESTS];
    const char *address = NULL;
    long port = 7470, iters = 20000;
    size_t size = 8;
    for (int t = 0; t < NTESTS; t++)
        tests[t] = 1;
    int c;
    while ((c = getopt_long(argc, argv, "lc:p:s:i:t:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            listen_mode = 1;
            break;
        case 'c':
            address = optarg;
            break;
        case 'p':
            if (parse_long(optarg, 1, &port) || port > 65535) {
                usage(stderr);
                return 2;
            }
            break;
        case 's':
            if (parse_size(optarg, &size) || size > MAX_SIZE) {
                usage(stderr);
                return 2;
            }
            break;
        case 'i':
            if (parse_long(optarg, 16, &iters)) {
                usage(stderr);
                return 2;
            }
            break;
        case 't':
            if (parse_tests(optarg, test_names, NTESTS, tests)) {
                usage(stderr);
                return 2;
            }
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (listen_mode == (address != NULL)) {
        usage(stderr);
        return 2;
    }

    struct link l = {open_link(address, (int)port), -1, size, 0};
    l.epfd = epoll_create1(0);
    if (l.epfd < 0)
        die("epoll_create1");
    struct epoll_event ev = {.events = EPOLLIN};
    if (epoll_ctl(l.epfd, EPOLL_CTL_ADD, l.fd, &ev) != 0)
        die("epoll_ctl");

    int initiator = address != NULL, points = 0;
    if (initiator) {
        printf("test,size,value,unit,iters\n");
        fflush(stdout);
    }
    for (int t = 0; t < NTESTS; t++) {
        if (!tests[t])
            continue;
        struct run r = {&l, t, initiator, 1};
        run_iters(&r, iters / 10 + 1); /* warm-up */
        double seconds = time_in_chunks(run_iters, &r, iters);
        double us = seconds * 1e6 / (double)iters;
        if (t == PINGPONG_SPIN || t == PINGPONG_EPOLL)
            us /= 2; /* half the round trip */
        if (initiator) {
            printf("%s,%zu,%.3f,us,%ld\n", test_names[t], size, us, iters);
            fflush(stdout);
            points++;
        }
    }
    if (initiator)
        fprintf(stderr, "tcp_floor: done: %d points, %ld failed verification\n", points,
                l.failures);
    close(l.fd);
    return l.failures != 0;
}
