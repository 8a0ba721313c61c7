// A kind's sizing from (n, p): its own static size_report_for, picked by
// io::with_type. A kind has it or is not sized from a rate (sized_from_rate).
#include "bloomlab/io/kind_size.hpp"

#include <stdexcept>
#include <type_traits>

namespace bloomlab::io {

namespace {

template <class F>
inline constexpr bool takes_prime = requires { F::size_report_for(1.0, 0.5, true); };
template <class F>
inline constexpr bool reports_size = takes_prime<F> || requires { F::size_report_for(1.0, 0.5); };

}  // namespace

bool sized_from_rate(const kind_info& row) {
  return with_type(row, []<class F>(std::type_identity<F>) { return reports_size<F>; });
}

kind_size size_kind(const kind_info& row, double n, double p, bool prime) {
  return with_type(row, [&]<class F>(std::type_identity<F>) -> kind_size {
    if constexpr (takes_prime<F>) return F::size_report_for(n, p, prime);
    else if constexpr (reports_size<F>) return F::size_report_for(n, p);
    else throw std::logic_error("io::size_kind: a kind that is not sized from (n, p)");
  });
}

}  // namespace bloomlab::io
