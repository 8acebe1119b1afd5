// fmt's compiled part, built into libshoal once (issue 18, item 3). Every other file of the
// library includes only fmt's declarations (<fmt/format.h>, not header-only), and the
// definitions they call are here, hidden like the rest of the library (-fvisibility=hidden,
// FMT_API left empty because FMT_SHARED is not defined, api/libshoal.map): libshoal does not
// need libfmt.so and a program's own fmt cannot interpose them. The top-level CMakeLists.txt
// has the build settings; tests/install/check_private_logging.cmake checks the result.
//
// format-inl.h, included without FMT_HEADER_ONLY, defines fmt's out-of-line functions as
// ordinary (non-inline) functions. Its function templates are instantiated below for the
// arguments the headers declare them for (the extern templates at the end of fmt/format.h and
// the FMT_API templates); a use the list misses is an undefined symbol when libshoal is linked
// (-Wl,--no-undefined), not a run-time failure.
#if defined(FMT_HEADER_ONLY) || defined(FMT_SHARED)
#error "fmt must be built neither header-only nor shared (see the top-level CMakeLists.txt)"
#endif

#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template locale_ref::locale_ref(const std::locale &loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
