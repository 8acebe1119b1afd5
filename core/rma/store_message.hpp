// A put and a signal in one network message: bytes for a symmetric object of a PE on another
// node, then a 64-bit word there (a collective's notification counter) set with release order,
// carried by one UCX active message, which may carry a pending raise of another word too. The
// receiving worker copies the bytes and sets the word while it progresses, so the receiver sees the
// word change only after the bytes are in place, and nothing comes back: a put over TCP costs a
// second message (UCX acknowledges every emulated put), this costs one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rma/stash.hpp"
#include "status.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal {
struct Runtime;
}

namespace shoal::rma {

// Largest payload put_then_store() carries; larger data goes as a put before it. One eager
// message (UCX fragments and reassembles it) costs no acknowledgement, no fence and no round
// trip: across two hosts over TCP it halved a 64 KiB broadcast against a put before the
// counter's message. Above this, UCX's reassembly buffer per message would grow too large.
inline constexpr std::size_t kStoreMessageMaxBytes = std::size_t{1} << 20;

// The data of a message beyond this many bytes goes ahead of it in pieces of this size, each
// one message of UCX's TCP transport (its 128 KiB buffers, transport/tcp_segments.hpp, with room
// for the headers): a larger message would arrive in fragments that UCX first reassembles in a
// buffer of its own, one more copy of the whole. Across two namespace hosts (2 PEs, us):
// broadcast 1 MiB 126-133 against 158-165 as one message, sum reduction 1 MiB 285 against
// 361-366, fcollect 1 MiB 296-297 against 380-385. (Pieces of 64 KiB or of 131000 B did worse.)
inline constexpr std::size_t kStorePieceBytes = std::size_t{120} << 10;

// Whether put_then_store() (not a stream) sends on this PE's receiving worker rather than the
// default context's: then it is ordered after nothing the default context issued, and a caller that
// needs that completes it first (quiet).
bool store_messages_bypass_default_worker() noexcept;

// Installs the receiving side on the worker other PEs send to (before they can).
Status accept_store_messages(ucx::UcxWorker &receiver, Runtime &runtime) noexcept;

// Sends `bytes` (at most kStoreMessageMaxBytes, possibly 0) from `source` to the symmetric
// address `dest` of world PE pe, then `value` into the symmetric 64-bit word `word` there.
// Messages to one PE arrive in order. While a progress thread runs they go from this PE's
// receiving worker (see store_messages_bypass_default_worker), otherwise on the default
// context's worker, ordered after what it issued to pe before. Returns once `source` may be
// reused. Errors end the job, naming `routine`.
// `stream`: the message is one of a one-way stream (a broadcast's lines and their
// acknowledgements) and always leaves from the default context's worker, which the sender
// does not share with its progress thread.
void put_then_store(void *dest, const void *source, std::size_t bytes, std::uint64_t *word,
                    std::uint64_t value, int pe, const char *routine, bool stream = false) noexcept;

// The same with the data (at most kStashMaxBytes) going into the receiver's stash buffer of
// the symmetric address `place` (rma/stash.hpp) instead of to `place` itself: for a receiver
// that may still use that memory when the message arrives. Always a message, even to a
// mapped PE.
void stash_then_store(const void *place, const void *source, std::size_t bytes, std::uint64_t *word,
                      std::uint64_t value, int pe, const char *routine,
                      bool stream = false) noexcept;

// Raises the symmetric 64-bit word `word` of world PE pe to at least `value`, not necessarily
// now (rma/pending_raises.hpp): the value rides in the next store message to pe, and goes in
// a message of its own (a stream's) once it is `slack` or more past the last one sent for the
// word. So after this call pe has been sent at least value - slack + 1. For acknowledgements
// a peer needs only a few messages later. `value` names the word's user in its top bits
// (rma/raised_word.hpp), and pe's word takes it only while it names the same user; a user's
// values for a word must only grow.
void raise_eventually(std::uint64_t *word, std::uint64_t value, int pe, std::uint64_t slack,
                      const char *routine) noexcept;

// This PE's stash buffer of the symmetric address `place`: after acquiring a value that a
// stash_then_store() set, it holds that message's data. Null when no message came for it.
const std::byte *stashed(const void *place) noexcept;

}  // namespace shoal::rma
