// Deterministic randomness of the soak test. Every choice is a pure function of
// (seed, round, tag, pe): any PE can recompute what any other PE did in a round, so it knows the
// exact value every location must hold, and a seed replays a whole run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace soak {

// splitmix64's finaliser: a bijection on 64 bits with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr std::uint64_t hash_tag(std::string_view tag) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char c : tag) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

// One 64-bit key from any number of integer parts (order matters).
template <class... Parts>
constexpr std::uint64_t key_of(Parts... parts) {
  std::uint64_t h = 0x2545f4914f6cdd1dull;
  ((h = mix64(h ^ static_cast<std::uint64_t>(parts))), ...);
  return h;
}

class Rng {
 public:
  explicit Rng(std::uint64_t key) : state_(key) {}

  std::uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ull); }
  // Uniform in [0, n); n > 0.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  // Uniform in [lo, hi].
  long between(long lo, long hi) {
    return lo + static_cast<long>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  // True with probability percent / 100.
  bool percent(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  // Log-uniform in [lo, hi] (lo >= 1): small sizes as likely as large ones per octave, so
  // 1-byte, odd and 64 KiB transfers all occur often.
  std::size_t log_uniform(std::size_t lo, std::size_t hi) {
    int bits_hi = 0;
    while ((std::size_t{1} << bits_hi) < hi) ++bits_hi;
    for (;;) {
      const int bits = static_cast<int>(below(static_cast<std::uint64_t>(bits_hi) + 1));
      const std::size_t top = std::size_t{1} << bits;
      const std::size_t v = top / 2 + below(top - top / 2 + 1);
      if (v >= lo && v <= hi) return v;
    }
  }
  // Index chosen with the given weights (not all zero).
  template <std::size_t N>
  int weighted(const int (&weights)[N]) {
    int total = 0;
    for (int w : weights) total += w;
    long r = static_cast<long>(below(static_cast<std::uint64_t>(total)));
    for (std::size_t i = 0; i < N; ++i) {
      if (r < weights[i]) return static_cast<int>(i);
      r -= weights[i];
    }
    return static_cast<int>(N) - 1;
  }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::uint64_t state_;
};

// An endless byte stream named by a key: byte i is byte (i % 8) of mix64(key ^ i / 8). Payloads,
// backgrounds and sources are windows of such streams, so a checker regenerates them anywhere.
class Pattern {
 public:
  explicit Pattern(std::uint64_t key) : key_(key) {}
  std::uint64_t key() const { return key_; }

  std::uint8_t at(std::size_t i) const {
    return static_cast<std::uint8_t>(word(i / 8) >> (8 * (i % 8)));
  }
  // Writes stream bytes [from, from + len) to dst.
  void fill(void* dst, std::size_t from, std::size_t len) const {
    auto* out = static_cast<std::uint8_t*>(dst);
    std::size_t i = 0;
    for (; i < len && (from + i) % 8 != 0; ++i) out[i] = at(from + i);
    for (; i + 8 <= len; i += 8) {
      const std::uint64_t w = word((from + i) / 8);
      std::memcpy(out + i, &w, 8);  // little-endian byte order, as at() reads it
    }
    for (; i < len; ++i) out[i] = at(from + i);
  }

 private:
  std::uint64_t word(std::size_t w) const { return mix64(key_ ^ (w * 0xd6e8feb86659fd93ull)); }
  std::uint64_t key_;
};

}  // namespace soak
