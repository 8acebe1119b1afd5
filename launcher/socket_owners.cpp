#include "socket_owners.hpp"

#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>

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

std::vector<TcpSocket> tcp_sockets() {
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
