// Type lists for tests generated from the type tables (core/types/type_tables.def), and the
// sample of them that the sanitizer builds test.
//
// A table row becomes an adapter (a struct with `using type = T` and the row's routines); a test
// runs over a table either as a GoogleTest typed suite or with the table's X-macro:
//
//   using Rows = std::tuple<Ops_int, Ops_long, ...>;      // the table, built with tuple_cat
//   TYPED_TEST_SUITE(Suite, TestedTypes<Rows>, ...);      // a typed suite over the tested rows
//   #define RUN(TN, T) if constexpr (kTested<Ops_##TN, Rows>) run<Ops_##TN>();
//
// Every row is tested, except in builds configured with SHOAL_TEST_SAMPLE=ON (the asan and
// tsan presets, CMakePresets.json): there only the first row of each element shape is, a shape
// being the element's size and kind (signed, unsigned, floating, other). The rows of one shape
// differ only in their names: the API generates them from the same table onto the same byte
// and word paths, and the default build still tests every row. What a sanitizer looks for
// (bounds, lifetimes, undefined arithmetic) depends on the shape, while each typed test costs
// its compile time once per row: rows of a shape already tested took a quarter of the compile
// CPU of the asan build's test programs (1040 s of it on 2 cores; tests/README.md).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace shoal::test {

#ifdef SHOAL_TEST_SAMPLE
inline constexpr bool kSampleRows = true;
#else
inline constexpr bool kSampleRows = false;
#endif

// The element type of a row: Row::type for an adapter, Row itself otherwise.
template <class Row, class = void>
struct ElementOf {
  using type = Row;
};
template <class Row>
struct ElementOf<Row, std::void_t<typename Row::type>> {
  using type = typename Row::type;
};

enum class ElementKind { signed_integer, unsigned_integer, floating, other };

template <class T>
constexpr ElementKind element_kind() {
  if constexpr (std::is_floating_point_v<T>)
    return ElementKind::floating;
  else if constexpr (std::is_integral_v<T>)
    return std::is_signed_v<T> ? ElementKind::signed_integer : ElementKind::unsigned_integer;
  else
    return ElementKind::other;
}

template <class A, class B>
inline constexpr bool kSameShape =
    sizeof(typename ElementOf<A>::type) == sizeof(typename ElementOf<B>::type) &&
    element_kind<typename ElementOf<A>::type>() == element_kind<typename ElementOf<B>::type>();

// True when Row is the first row of Rows (a std::tuple) with its shape.
template <class Row, class Rows>
struct FirstOfShape;
template <class Row>
struct FirstOfShape<Row, std::tuple<>> : std::false_type {};
template <class Row, class Head, class... Tail>
struct FirstOfShape<Row, std::tuple<Head, Tail...>>
    : std::conditional_t<std::is_same_v<Row, Head>, std::true_type,
                         std::conditional_t<kSameShape<Row, Head>, std::false_type,
                                            FirstOfShape<Row, std::tuple<Tail...>>>> {};

// Whether this build tests the row Row of the table Rows.
template <class Row, class Rows>
inline constexpr bool kTested = !kSampleRows || FirstOfShape<Row, Rows>::value;

namespace detail {
template <class Tuple>
struct TypesOf;
template <class... Row>
struct TypesOf<std::tuple<Row...>> {
  using type = ::testing::Types<Row...>;
};
template <class Rows>
struct TestedTuple;
template <class... Row>
struct TestedTuple<std::tuple<Row...>> {
  using Rows = std::tuple<Row...>;
  using type = decltype(std::tuple_cat(
      std::declval<std::conditional_t<kTested<Row, Rows>, std::tuple<Row>, std::tuple<>>>()...));
};
}  // namespace detail

// ::testing::Types of the rows of Rows (a std::tuple) that this build tests, in table order.
template <class Rows>
using TestedTypes = typename detail::TypesOf<typename detail::TestedTuple<Rows>::type>::type;

}  // namespace shoal::test
