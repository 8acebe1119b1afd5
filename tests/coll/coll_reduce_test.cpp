// The team reductions shmem_TYPENAME_{and,or,xor,min,max,sum,prod}_reduce on every type of
// their tables and every team of coll_test_util.hpp, run once per SMA_REDUCE_ALGORITHM. The
// expected result is folded serially on every PE from inputs every PE can compute
// (reduce_input in coll_ops.hpp keeps every result exact whatever the combining order).
// source and dest may be the same array (in place); elements past nreduce stay untouched.
#include "coll_ops.hpp"

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr std::size_t kGuardBytes = 64;

template <class T>
std::vector<T> reference(const TeamCase& t, Op op, std::size_t n, unsigned salt) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    T acc = reduce_input<T>(op, t.world_pe(0), i, salt);
    for (int j = 1; j < t.size; ++j)
      acc = combine(op, acc, reduce_input<T>(op, t.world_pe(j), i, salt));
    out[i] = acc;
  }
  return out;
}

// One reduction of n elements, out of place (dest != source) or in place.
template <class R>
void reduce_case(const TeamCase& t, Op op, std::size_t n, unsigned salt, void* dest_buf,
                 void* source_buf, bool in_place = false) {
  using T = typename R::type;
  T* source = static_cast<T*>(source_buf);
  T* dest = in_place ? source : static_cast<T*>(dest_buf);
  const int self = t.world_pe(t.my);
  const std::size_t bytes = n * sizeof(T);
  if (!in_place) fill_guard(dest, 0, bytes + kGuardBytes);
  for (std::size_t i = 0; i < n; ++i) source[i] = reduce_input<T>(op, self, i, salt);
  if (in_place) fill_guard(dest, bytes, bytes + kGuardBytes);

  const int rc = R::reduce(op, t.team, dest, source, n);

  const std::string w =
      where((std::string(op_name(op)) + "_reduce" + (in_place ? " in place" : "")).c_str(), t,
            R::name, n);
  EXPECT_EQ(rc, 0) << w;
  const std::vector<T> want = reference<T>(t, op, n, salt);
  EXPECT_TRUE(check_elems(w + ": dest", dest, 0, n, [&](std::size_t i) { return want[i]; }));
  EXPECT_TRUE(check_guard(w + ": past dest", dest, bytes, bytes + kGuardBytes));
  if (!in_place) {
    EXPECT_TRUE(check_elems(w + ": source changed", source, 0, n,
                            [&](std::size_t i) { return reduce_input<T>(op, self, i, salt); }));
  }
}

// Every operation of `ops`, or (all == false) one of them, chosen by the salt so consecutive
// types and teams take turns.
template <class R, std::size_t K>
void every_op(const TeamCase& t, const Op (&ops)[K], std::size_t n, unsigned& salt, void* dest,
              void* source, bool all) {
  if (!all) {
    const Op op = ops[salt % K];
    reduce_case<R>(t, op, n, salt++, dest, source);
    return;
  }
  for (Op op : ops) reduce_case<R>(t, op, n, salt++, dest, source);
}

}  // namespace

// Every (type, operation) pair of the three tables on the representative teams with one element
// and an odd count (more elements than PEs, so algorithms that split the vector give every PE a
// piece); on the other teams every type with the odd count and one of its operations in turn.
TEST(CollReduce, EveryTypeAndOperation) {
  SymBuffer dest(19 * 16 + kGuardBytes), source(19 * 16 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  const auto rep = representative_teams();
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1, *t);
    const bool representative = std::find(rep.begin(), rep.end(), t) != rep.end();
    for (std::size_t n : {19, 1}) {
      if (n == 1 && !representative) continue;
#define SHOAL_RUN(TN, T)                    \
  if constexpr (kTested<Bit_##TN, BitRows>) \
    every_op<Bit_##TN>(*t, kBitOps, n, salt, dest.get(), source.get(), representative);
      SMA_REDUCE_BITWISE_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
#define SHOAL_RUN(TN, T)                                                                  \
  if constexpr (kTested<Cmp_##TN, CmpRows>) {                                             \
    every_op<Cmp_##TN>(*t, kCmpOps, n, salt, dest.get(), source.get(), representative);   \
    every_op<Cmp_##TN>(*t, kArithOps, n, salt, dest.get(), source.get(), representative); \
  }
      SMA_REDUCE_COMPARE_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
#define SHOAL_RUN(TN, T)                  \
  if constexpr (kTested<Cx_##TN, CxRows>) \
    every_op<Cx_##TN>(*t, kArithOps, n, salt, dest.get(), source.get(), representative);
      SMA_REDUCE_ARITH_COMPLEX_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
    }
  }
  shmem_barrier_all();
}

// Every team, sizes 0, 1, odd and a few hundred, with a handful of representative pairs.
TEST(CollReduce, EveryTeamAndSize) {
  SymBuffer dest(1001 * 16 + kGuardBytes), source(1001 * 16 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1000, *t);
    for (std::size_t n : {0, 1, 7, 1001}) {
      reduce_case<Cmp_int>(*t, Op::sum, n, salt++, dest.get(), source.get());
      reduce_case<Cmp_double>(*t, Op::max, n, salt++, dest.get(), source.get());
      reduce_case<Bit_uint64>(*t, Op::xor_, n, salt++, dest.get(), source.get());
      reduce_case<Cmp_int8>(*t, Op::prod, n, salt++, dest.get(), source.get());
      reduce_case<Cx_complexd>(*t, Op::sum, n, salt++, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

// dest == source on every team.
TEST(CollReduce, InPlace) {
  SymBuffer buf(257 * 8 + kGuardBytes);
  ASSERT_TRUE(buf);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(3000, *t);
    reduce_case<Cmp_int64>(*t, Op::sum, 257, salt++, nullptr, buf.get(), true);
    reduce_case<Bit_uint32>(*t, Op::or_, 33, salt++, nullptr, buf.get(), true);
    reduce_case<Cmp_float>(*t, Op::min, 33, salt++, nullptr, buf.get(), true);
  }
  shmem_barrier_all();
}

// Above the scratch (128 KiB by default): about kLargeBytes in several types, and the sizes
// right at the default scratch size and one element past it.
TEST(CollReduce, LargerThanScratch) {
  const std::size_t cap = kLargeBytes + 64 * 1024;
  SymBuffer dest(cap), source(cap);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : large_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(5000, *t);
    reduce_case<Cmp_double>(*t, Op::sum, odd_count_for<double>(kLargeBytes), salt++, dest.get(),
                            source.get());
    reduce_case<Bit_uint8>(*t, Op::xor_, kLargeBytes + 1, salt++, dest.get(), source.get());
  }
  const TeamCase& world = teams().front();
  unsigned salt = team_salt(7000, world);
  reduce_case<Cmp_int32>(world, Op::max, odd_count_for<std::int32_t>(kLargeBytes), salt++,
                         dest.get(), source.get());
  reduce_case<Cx_complexf>(world, Op::prod, odd_count_for<float _Complex>(kLargeBytes), salt++,
                           dest.get(), source.get());
  reduce_case<Cmp_long>(world, Op::sum, 128 * 1024 / sizeof(long), salt++, dest.get(),
                        source.get());
  reduce_case<Cmp_long>(world, Op::sum, 128 * 1024 / sizeof(long) + 1, salt++, dest.get(),
                        source.get());
  shmem_barrier_all();
}

// 40 reductions in a row with no barrier, the dest of each being the source of the next (each
// PE changes the even elements of its copy before passing it on, so the inputs differ per PE),
// cycling through every operation.
TEST(CollReduce, BackToBackChain) {
  constexpr std::size_t n = 37;
  SymBuffer a(n * sizeof(std::uint64_t)), b(n * sizeof(std::uint64_t));
  ASSERT_TRUE(a && b);
  const Op ops[] = {Op::sum, Op::xor_, Op::max, Op::and_, Op::prod, Op::or_, Op::min};
  for (const TeamCase* t : all_teams()) {
    if (!t->member || t->size < 2) continue;
    // inputs[j] = what team PE j holds in its current source.
    std::vector<std::vector<std::uint64_t>> inputs(static_cast<std::size_t>(t->size),
                                                   std::vector<std::uint64_t>(n));
    for (int j = 0; j < t->size; ++j)
      for (std::size_t i = 0; i < n; ++i)
        inputs[static_cast<std::size_t>(j)][i] = hash3(t->world_pe(j), i, 9000);
    auto* x = a.as<std::uint64_t>();
    auto* y = b.as<std::uint64_t>();
    for (std::size_t i = 0; i < n; ++i) x[i] = inputs[static_cast<std::size_t>(t->my)][i];
    const int steps = t->world || t->size == 3 ? 40 : 8;
    for (int s = 0; s < steps; ++s) {
      const Op op = ops[s % 7];
      std::uint64_t* in = (s % 2 == 0) ? x : y;
      std::uint64_t* out = (s % 2 == 0) ? y : x;
      int rc = kNoSuchRoutine;
      switch (op) {
        case Op::and_:
          rc = shmem_uint64_and_reduce(t->team, out, in, n);
          break;
        case Op::or_:
          rc = shmem_uint64_or_reduce(t->team, out, in, n);
          break;
        case Op::xor_:
          rc = shmem_uint64_xor_reduce(t->team, out, in, n);
          break;
        case Op::min:
          rc = shmem_uint64_min_reduce(t->team, out, in, n);
          break;
        case Op::max:
          rc = shmem_uint64_max_reduce(t->team, out, in, n);
          break;
        case Op::sum:
          rc = shmem_uint64_sum_reduce(t->team, out, in, n);
          break;
        case Op::prod:
          rc = shmem_uint64_prod_reduce(t->team, out, in, n);
          break;
      }
      std::vector<std::uint64_t> want(n);
      for (std::size_t i = 0; i < n; ++i) {
        want[i] = inputs[0][i];
        for (std::size_t j = 1; j < inputs.size(); ++j)
          want[i] = combine(op, want[i], inputs[j][i]);
      }
      const std::string w = where(
          (std::string("chained ") + op_name(op) + "_reduce step " + std::to_string(s)).c_str(), *t,
          "uint64", n);
      EXPECT_EQ(rc, 0) << w;
      EXPECT_TRUE(check_elems(w, out, 0, n, [&](std::size_t i) { return want[i]; }));
      // Next inputs: the result, with the even elements changed per PE.
      for (int j = 0; j < t->size; ++j)
        for (std::size_t i = 0; i < n; ++i)
          inputs[static_cast<std::size_t>(j)][i] =
              i % 2 == 0
                  ? want[i] ^ (hash3(t->world_pe(j), i, 9100 + static_cast<unsigned>(s)) | 1u)
                  : want[i];
      for (std::size_t i = 0; i < n; ++i) out[i] = inputs[static_cast<std::size_t>(t->my)][i];
    }
  }
  shmem_barrier_all();
}

// Vectors above a mailbox (kBoxBytes) and of one element in turn, no barriers. Across nodes the
// larger ones travel as messages even to the PEs of this node (mailbox: into the stash) and the
// one-element ones as stores there: a store must never overtake the message before it on the
// same counter (the receiver would read the stash before the data arrived; seen as wrong
// results whenever the receiving worker dispatched its messages late).
TEST(CollReduce, MessagesThenStoresOnOneCounter) {
  constexpr std::size_t kLong = 19;  // 152 B
  SymBuffer dest(kLong * sizeof(std::uint64_t)), source(kLong * sizeof(std::uint64_t));
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member || !t->world) continue;
    for (unsigned step = 0; step < 400; ++step) {
      const std::size_t n = step % 2 == 0 ? kLong : 1;
      auto* in = source.as<std::uint64_t>();
      auto* out = dest.as<std::uint64_t>();
      for (std::size_t i = 0; i < n; ++i) in[i] = hash3(t->world_pe(t->my), i, 9200 + step);
      const int rc = shmem_uint64_xor_reduce(t->team, out, in, n);
      std::vector<std::uint64_t> want(n, 0);
      for (int j = 0; j < t->size; ++j)
        for (std::size_t i = 0; i < n; ++i) want[i] ^= hash3(t->world_pe(j), i, 9200 + step);
      const std::string w =
          where(("xor_reduce step " + std::to_string(step)).c_str(), *t, "uint64", n);
      EXPECT_EQ(rc, 0) << w;
      if (!check_elems(w, out, 0, n, [&](std::size_t i) { return want[i]; })) {
        ADD_FAILURE() << w;
        break;
      }
    }
  }
  shmem_barrier_all();
}

// Different collectives back to back on the same two buffers, no barriers: reduce, broadcast
// of the result, fcollect, sum_inscan, alltoall, each result feeding the next.
TEST(CollReduce, MixedCollectivesBackToBack) {
  constexpr std::size_t n = 8;
  const std::size_t cap = 8 * n * 8 * sizeof(std::int64_t);
  SymBuffer a(cap), b(cap);
  ASSERT_TRUE(a && b);
  for (const TeamCase* t : all_teams()) {
    if (!t->member || t->size < 2) continue;
    const std::size_t size = static_cast<std::size_t>(t->size);
    auto* x = a.as<std::int64_t>();
    auto* y = b.as<std::int64_t>();
    const std::string w = where("mixed chain", *t, "int64", n);
    for (int round = 0; round < 3; ++round) {
      // 1. sum_reduce of PE-specific inputs into y.
      auto in_of = [&](int j, std::size_t i) {
        return static_cast<std::int64_t>(hash3(t->world_pe(j), i, 7000 + round) % 100000);
      };
      for (std::size_t i = 0; i < n; ++i) x[i] = in_of(t->my, i);
      EXPECT_EQ(shmem_int64_sum_reduce(t->team, y, x, n), 0) << w;
      std::vector<std::int64_t> sum(n, 0);
      for (int j = 0; j < t->size; ++j)
        for (std::size_t i = 0; i < n; ++i) sum[i] += in_of(j, i);
      EXPECT_TRUE(check_elems(w + ": reduce", y, 0, n, [&](std::size_t i) { return sum[i]; }));
      // 2. each PE adds its team number; the last PE's copy is broadcast into x.
      for (std::size_t i = 0; i < n; ++i) y[i] += t->my;
      EXPECT_EQ(shmem_int64_broadcast(t->team, x, y, n, t->size - 1), 0) << w;
      EXPECT_TRUE(check_elems(w + ": broadcast", x, 0, n,
                              [&](std::size_t i) { return sum[i] + t->size - 1; }));
      // 3. fcollect of x + my into y: block j holds sum + size - 1 + j.
      for (std::size_t i = 0; i < n; ++i) x[i] += t->my;
      EXPECT_EQ(shmem_int64_fcollect(t->team, y, x, n), 0) << w;
      EXPECT_TRUE(check_elems(w + ": fcollect", y, 0, size * n, [&](std::size_t i) {
        return sum[i % n] + t->size - 1 + static_cast<std::int64_t>(i / n);
      }));
      // 4. inclusive scan of y's first n elements (block 0, same on every PE) into x:
      //    team PE j gets (j + 1) * (sum + size - 1).
      EXPECT_EQ(shmem_int64_sum_inscan(t->team, x, y, n), 0) << w;
      EXPECT_TRUE(check_elems(w + ": inscan", x, 0, n,
                              [&](std::size_t i) { return (t->my + 1) * (sum[i] + t->size - 1); }));
      // 5. alltoall of x repeated per destination into y: block j = team PE j's scan result.
      for (std::size_t j = size; j-- > 0;)
        for (std::size_t i = 0; i < n; ++i) x[j * n + i] = x[i] + static_cast<std::int64_t>(j);
      EXPECT_EQ(shmem_int64_alltoall(t->team, y, x, n), 0) << w;
      EXPECT_TRUE(check_elems(w + ": alltoall", y, 0, size * n, [&](std::size_t i) {
        const auto j = static_cast<std::int64_t>(i / n);
        return (j + 1) * (sum[i % n] + t->size - 1) + t->my;
      }));
    }
  }
  shmem_barrier_all();
}

// Sizes on both sides of the on-node algorithms' limits (one cache line of 56 B, eight of them:
// 448 B, or 384 B of 16-byte elements; vectors read straight from every PE's source above a few
// KiB), out of place and in place alternately, back to back with no barrier on every team:
// consecutive calls switch between algorithms on the same buffers, and the in-place ones
// overwrite a source the peers read.
TEST(CollReduce, LineSizesBackToBack) {
  const std::size_t bytes[] = {1,   8,   48,  55,  56, 57,   63, 64,   65,    200,
                               384, 385, 448, 449, 8,  4097, 56, 8193, 70001, 1};
  SymBuffer dest(70001 + kGuardBytes), source(70001 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(9500, *t);
    bool in_place = false;
    for (std::size_t b : bytes) {
      reduce_case<Bit_uchar>(*t, Op::xor_, b, salt++, dest.get(), source.get(), in_place);
      if (b % 8 == 0)
        reduce_case<Cmp_long>(*t, Op::sum, b / 8, salt++, dest.get(), source.get(), !in_place);
      if (b % 4 == 0)
        reduce_case<Cmp_float>(*t, Op::sum, b / 4, salt++, dest.get(), source.get(), in_place);
      if (b % 16 == 0)
        reduce_case<Cx_complexd>(*t, Op::prod, b / 16, salt++, dest.get(), source.get(), in_place);
      in_place = !in_place;
    }
    for (int i = 0; i < 30; ++i)
      reduce_case<Cmp_int64>(*t, Op::max, 1 + static_cast<std::size_t>(i % 7), salt++, dest.get(),
                             source.get(), i % 3 == 0);
  }
  shmem_barrier_all();
}
