// The sample of type-table rows that the sanitizer builds test (type_lists.hpp): on the real
// tables, every element shape keeps exactly one row, the first of the table with that shape,
// and the rows left out are ones whose shape a kept row covers.
#include "type_lists.hpp"
#include "type_tables.def"

#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace shoal::test {
namespace {

// Rows are distinct types even where their elements are one type (int and int32_t), as the
// adapters of the typed tests are.
template <class T, int Tag = 0>
struct Row {
  using type = T;
};

// The names of the rows of Rows for which FirstOfShape holds.
template <class Rows, std::size_t... I>
std::vector<std::string> first_of_shape_names(const char* const* names, std::index_sequence<I...>) {
  std::vector<std::string> kept;
  ((FirstOfShape<std::tuple_element_t<I, Rows>, Rows>::value ? kept.push_back(names[I]) : void()),
   ...);
  return kept;
}
template <class Rows>
std::vector<std::string> first_of_shape_names(const char* const* names) {
  return first_of_shape_names<Rows>(names, std::make_index_sequence<std::tuple_size_v<Rows>>{});
}

#define SHOAL_ROW(TN, T) \
  struct Row_##TN {      \
    using type = T;      \
  };
#define SHOAL_ELEM(TN, T) std::tuple<Row_##TN>{},
#define SHOAL_NAME(TN, T) #TN,
namespace rma {
SMA_RMA_TYPES(SHOAL_ROW)
using Rows = decltype(std::tuple_cat(SMA_RMA_TYPES(SHOAL_ELEM) std::tuple<>{}));
constexpr const char* kNames[] = {SMA_RMA_TYPES(SHOAL_NAME)};
}  // namespace rma
namespace amo {
SMA_AMO_STANDARD_TYPES(SHOAL_ROW)
using Rows = decltype(std::tuple_cat(SMA_AMO_STANDARD_TYPES(SHOAL_ELEM) std::tuple<>{}));
constexpr const char* kNames[] = {SMA_AMO_STANDARD_TYPES(SHOAL_NAME)};
}  // namespace amo
namespace bitwise {
SMA_AMO_BITWISE_TYPES(SHOAL_ROW)
using Rows = decltype(std::tuple_cat(SMA_AMO_BITWISE_TYPES(SHOAL_ELEM) std::tuple<>{}));
constexpr const char* kNames[] = {SMA_AMO_BITWISE_TYPES(SHOAL_NAME)};
}  // namespace bitwise
#undef SHOAL_ROW
#undef SHOAL_ELEM
#undef SHOAL_NAME

TEST(TypeSample, RmaTableKeepsTheFirstRowOfEachSizeAndKind) {
  const std::vector<std::string> expected = {"float",  "double", "longdouble", "char",
                                             "short",  "int",    "long",       "uchar",
                                             "ushort", "uint",   "ulong"};
  EXPECT_EQ(first_of_shape_names<rma::Rows>(rma::kNames), expected);
}

TEST(TypeSample, AmoTablesKeepOneSignedAndOneUnsignedRowPerSize) {
  EXPECT_EQ(first_of_shape_names<amo::Rows>(amo::kNames),
            (std::vector<std::string>{"int", "long", "uint", "ulong"}));
  EXPECT_EQ(first_of_shape_names<bitwise::Rows>(bitwise::kNames),
            (std::vector<std::string>{"uint", "ulong", "int32", "int64"}));
}

TEST(TypeSample, ShapeIsSizeAndKind) {
  static_assert(kSameShape<long, long long>);
  static_assert(kSameShape<Row<int>, std::int32_t>);
  static_assert(!kSameShape<int, unsigned>);
  static_assert(!kSameShape<int, float>);
  static_assert(!kSameShape<double, std::int64_t>);
  static_assert(!kSameShape<std::complex<float>, std::complex<double>>);
  static_assert(!kSameShape<std::complex<float>, std::uint64_t>);
  SUCCEED();
}

TEST(TypeSample, TestedTypesFollowsTheBuild) {
  using Rows = std::tuple<Row<int>, Row<long>, Row<long long>, Row<int, 1>, Row<unsigned>>;
  using Sampled = ::testing::Types<Row<int>, Row<long>, Row<unsigned>>;
  using Every = ::testing::Types<Row<int>, Row<long>, Row<long long>, Row<int, 1>, Row<unsigned>>;
  EXPECT_TRUE((std::is_same_v<TestedTypes<Rows>, std::conditional_t<kSampleRows, Sampled, Every>>));
  EXPECT_EQ((kTested<Row<long long>, Rows>), !kSampleRows);
  EXPECT_EQ((kTested<Row<int, 1>, Rows>), !kSampleRows);
  EXPECT_TRUE((kTested<Row<long>, Rows>));
}

}  // namespace
}  // namespace shoal::test
