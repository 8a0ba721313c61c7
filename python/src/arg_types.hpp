// Argument types whose only job is the name help() shows: pybind11 names a
// py::handle parameter "handle", which tells a reader nothing. Each wraps the
// Python object as it came (the module checks it itself, with messages that
// name the argument), and gives its type as Python users write it.
#pragma once

#include <pybind11/pybind11.h>

namespace bloomlab::py_module {

// A batch of keys: a numpy integer array, or a sequence of str/bytes or ints.
struct py_keys {
  pybind11::handle h;
};
// One key: str, bytes, or an int from 0 to 2^64 - 1.
struct py_key {
  pybind11::handle h;
};
// A whole number (int, or anything with __index__), checked against its
// range by the call that takes it.
struct py_whole {
  pybind11::handle h;
};

}  // namespace bloomlab::py_module

namespace pybind11::detail {

template <class T>
struct handle_arg_caster {
  bool load(handle src, bool) {
    value.h = src;
    return static_cast<bool>(src);
  }
  static handle cast(const T& v, return_value_policy, handle) { return v.h.inc_ref(); }
  T value;
  operator T&() { return value; }
  operator const T&() const { return value; }
  template <class U>
  using cast_op_type = pybind11::detail::cast_op_type<U>;
};

template <>
struct type_caster<bloomlab::py_module::py_keys> : handle_arg_caster<bloomlab::py_module::py_keys> {
  static constexpr auto name = const_name("numpy.ndarray | Sequence[str | bytes | int]");
};
template <>
struct type_caster<bloomlab::py_module::py_key> : handle_arg_caster<bloomlab::py_module::py_key> {
  static constexpr auto name = const_name("str | bytes | int");
};
template <>
struct type_caster<bloomlab::py_module::py_whole> : handle_arg_caster<bloomlab::py_module::py_whole> {
  static constexpr auto name = const_name("int");
};

}  // namespace pybind11::detail
