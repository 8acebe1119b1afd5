// Who is connected to oshrun's PMIx server. PMIx 4.2 serves its clients over TCP on 127.0.0.1
// only, and its native security believes the uid a client writes in its handshake. The kernel
// knows better: its socket listing (sock_diag netlink, or /proc/net/tcp{,6}) gives every
// socket with the uid that created it.
#pragma once

namespace shoal::launcher {

// Shuts down (both directions; PMIx still owns and closes the descriptor) every connection to
// one of this process's listening TCP sockets whose client end the kernel records as another
// uid's. Reads /proc/self/fd and the kernel's TCP socket listing. Returns how many it shut down.
int shut_out_foreign_peers();

}  // namespace shoal::launcher
