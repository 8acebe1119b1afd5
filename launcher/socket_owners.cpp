#include "socket_owners.hpp"

#include <dirent.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace shoal::launcher {
namespace {

// This process's sockets: inode ("socket:[N]" links in /proc/self/fd) to descriptor.
std::map<unsigned long, int> own_sockets() {
  std::map<unsigned long, int> sockets;
  DIR *dir = ::opendir("/proc/self/fd");
  if (!dir) return sockets;
  while (const dirent *e = ::readdir(dir)) {
    char target[64];
    const std::string link = std::string("/proc/self/fd/") + e->d_name;
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    unsigned long inode = 0;
    if (std::sscanf(target, "socket:[%lu]", &inode) == 1) sockets[inode] = std::atoi(e->d_name);
  }
  ::closedir(dir);
  return sockets;
}

struct TcpSocket {
  std::string local, remote;  // "ADDR:PORT" in the kernel's hex
  unsigned state = 0;         // 0x0A: listening
  unsigned long uid = 0, inode = 0;
};

// From the kernel's sock_diag netlink interface: the TCP sockets of this network namespace in
// every state but TIME_WAIT and CLOSE (which belong to nobody). Reading /proc/self/net/tcp{,6}
// instead costs 4-6 ms of kernel time per file on a host whose hash table holds a thousand
// closed sockets (the text is rebuilt a page at a time), and oshrun asks at every PE's
// connection; a netlink dump answers in well under a millisecond. False when the interface is
// missing (a kernel without inet_diag): the caller then reads /proc.
bool tcp_sockets_from_netlink(std::vector<TcpSocket> &out) {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return false;
  bool complete = true;
  for (const int family : {AF_INET, AF_INET6}) {
    struct {
      nlmsghdr header;
      inet_diag_req_v2 request;
    } ask{};
    ask.header.nlmsg_len = sizeof ask;
    ask.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    ask.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    ask.request.sdiag_family = static_cast<std::uint8_t>(family);
    ask.request.sdiag_protocol = IPPROTO_TCP;
    ask.request.idiag_states = 0xFFF & ~((1u << TCP_TIME_WAIT) | (1u << TCP_CLOSE));
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd, &ask, sizeof ask, 0, reinterpret_cast<sockaddr *>(&kernel), sizeof kernel) !=
        static_cast<ssize_t>(sizeof ask)) {
      complete = false;
      break;
    }
    const std::size_t address_bytes = family == AF_INET ? 4 : 16;
    alignas(nlmsghdr) char buffer[32768];
    bool done = false;
    while (!done) {
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        complete = false;
        break;
      }
      int left = static_cast<int>(n);
      for (auto *h = reinterpret_cast<nlmsghdr *>(buffer); NLMSG_OK(h, left);
           h = NLMSG_NEXT(h, left)) {
        if (h->nlmsg_type == NLMSG_DONE) {
          done = true;
          break;
        }
        if (h->nlmsg_type == NLMSG_ERROR) {
          complete = false;
          done = true;
          break;
        }
        const auto *m = static_cast<const inet_diag_msg *>(NLMSG_DATA(h));
        // The same "ADDR:PORT" keys for the same endpoints as the /proc listing's (only
        // compared with each other): the address's bytes and the port, in hex.
        auto key = [&](const __be32 *address, __be16 port) {
          std::string k;
          char digits[3];
          const auto *bytes = reinterpret_cast<const unsigned char *>(address);
          for (std::size_t i = 0; i < address_bytes; ++i) {
            std::snprintf(digits, sizeof digits, "%02X", bytes[i]);
            k += digits;
          }
          char p[8];
          std::snprintf(p, sizeof p, ":%04X", ntohs(port));
          return k + p;
        };
        TcpSocket s;
        s.local = key(m->id.idiag_src, m->id.idiag_sport);
        s.remote = key(m->id.idiag_dst, m->id.idiag_dport);
        s.state = m->idiag_state;
        s.uid = m->idiag_uid;
        s.inode = m->idiag_inode;
        out.push_back(std::move(s));
      }
      if (!complete) break;
    }
    if (!complete) break;
  }
  ::close(fd);
  if (!complete) out.clear();
  return complete;
}

// The same from /proc/self/net/tcp{,6} (where netlink is not available).
std::vector<TcpSocket> tcp_sockets_from_proc() {
  std::vector<TcpSocket> out;
  for (const char *path : {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      std::istringstream f(line);
      std::string sl, st, queues, timer, retr, timeout;
      TcpSocket s;
      if (!(f >> sl >> s.local >> s.remote >> st >> queues >> timer >> retr >> s.uid >> timeout >>
            s.inode))
        continue;
      s.state = static_cast<unsigned>(std::strtoul(st.c_str(), nullptr, 16));
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::vector<TcpSocket> tcp_sockets() {
  std::vector<TcpSocket> out;
  if (tcp_sockets_from_netlink(out)) return out;
  return tcp_sockets_from_proc();
}

}  // namespace

int shut_out_foreign_peers() {
  const std::map<unsigned long, int> ours = own_sockets();
  const std::vector<TcpSocket> sockets = tcp_sockets();
  std::set<std::string> listening;  // our listening addresses
  for (const TcpSocket &s : sockets)
    if (s.state == 0x0A && ours.count(s.inode)) listening.insert(s.local);
  const unsigned long me = ::geteuid();
  int shut = 0;
  for (const TcpSocket &peer : sockets) {
    if (peer.state == 0x0A || !listening.count(peer.remote) || ours.count(peer.inode) ||
        peer.uid == me)
      continue;
    // Our end of that connection: the address pair reversed.
    for (const TcpSocket &end : sockets) {
      if (end.local != peer.remote || end.remote != peer.local) continue;
      const auto fd = ours.find(end.inode);
      if (fd != ours.end() && ::shutdown(fd->second, SHUT_RDWR) == 0) ++shut;
    }
  }
  return shut;
}

}  // namespace shoal::launcher
