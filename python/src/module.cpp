// The bloomlab Python module (import bloomlab; this is bloomlab._bloomlab).
//
// Each filter kind is one Python class over a handle that holds the filter
// as the file codec does (io::filter_file: the filter, its item count and
// the cuckoo kick seed), so that save(), to_bytes() and pickling write the
// filter itself without a copy. Every call into the engine goes through
// engine_calls.hpp.
//
// Keys: a str (its UTF-8 bytes), bytes, or an int from 0 to 2^64 - 1.
// Batches: a one-dimensional numpy uint64 array, read in place through the
// buffer protocol (a non-contiguous one is copied first), or a sequence of
// str/bytes (or of ints). The GIL is released while the engine works on a
// batch, so batches on different filters run in parallel on threads.
//
// Each handle has a readers-writer lock: calls that change the filter take
// it alone, lookups share it. The lock is taken after the GIL is released
// and let go before the GIL is taken back, so it never waits on the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <concepts>
#include <cstring>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "bloomlab/filter_of.hpp"
#include "bloomlab/math.hpp"
#include "bloomlab/version.hpp"
#include "bloomlab/static_filter.hpp"
#include "arg_types.hpp"
#include "engine_calls.hpp"
#include "bloomlab/io/filter_file.hpp"
#include "bloomlab/io/kind_size.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bloomlab::py_module {

namespace engine = bloomlab::engine_calls;

// ---- keys ---------------------------------------------------------------------

[[noreturn]] void refuse_key(const py::handle& key) {
  throw py::type_error("key: a " + std::string(py::str(py::type::of(key).attr("__name__"))) +
                       " is not a key (allowed: str, bytes, or an int from 0 to 2^64 - 1)");
}

std::uint64_t int_key(const py::handle& key) {
  if (PyLong_CheckExact(key.ptr())) {
    const unsigned long long v = PyLong_AsUnsignedLongLong(key.ptr());
    if (v != static_cast<unsigned long long>(-1) || !PyErr_Occurred()) return static_cast<std::uint64_t>(v);
    PyErr_Clear();
    throw py::value_error("key: " + std::string(py::str(key)) + " is out of range (0 to 2^64 - 1)");
  }
  // Any object with __index__ (int subclasses, numpy integers).
  const py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(key.ptr()));
  if (!i) {
    PyErr_Clear();
    refuse_key(key);
  }
  const unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error("key: " + std::string(py::str(i)) + " is out of range (0 to 2^64 - 1)");
  }
  return static_cast<std::uint64_t>(v);
}

// The bytes of a str or bytes object, valid while the object lives.
std::optional<std::string_view> byte_key(const py::handle& key) {
  if (PyUnicode_Check(key.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(key.ptr(), &size);
    if (data == nullptr) throw py::error_already_set();
    return std::string_view(data, static_cast<std::size_t>(size));
  }
  if (PyBytes_Check(key.ptr()))
    return std::string_view(PyBytes_AS_STRING(key.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(key.ptr())));
  if (PyByteArray_Check(key.ptr()))
    return std::string_view(PyByteArray_AS_STRING(key.ptr()), static_cast<std::size_t>(PyByteArray_GET_SIZE(key.ptr())));
  return std::nullopt;
}

// Calls fn(std::string_view) or fn(std::uint64_t) for one key.
template <class Fn>
decltype(auto) with_key(const py::handle& key, Fn&& fn) {
  if (const auto bytes = byte_key(key)) return fn(*bytes);
  return fn(int_key(key));
}

// The same, as help() names them (arg_types.hpp).
template <class Fn>
decltype(auto) with_key(const py_key& key, Fn&& fn) {
  return with_key(key.h, std::forward<Fn>(fn));
}

// A batch of keys, ready for the engine: a span of integers (in place in a
// numpy array, or converted from a sequence of ints), or views of the bytes
// of str/bytes objects that `owner` keeps alive.
struct key_batch {
  std::span<const std::uint64_t> ints;
  std::vector<std::uint64_t> int_store;
  std::vector<std::string_view> views;
  py::object owner;
  bool integers = false;
  std::size_t size() const { return integers ? ints.size() : views.size(); }
};

key_batch batch_of(const py::handle& keys) {
  key_batch b;
  if (py::isinstance<py::array>(keys)) {
    const auto arr = py::reinterpret_borrow<py::array>(keys);
    if (arr.ndim() != 1)
      throw py::value_error("keys: an array of " + std::to_string(arr.ndim()) +
                            " dimensions (allowed: one dimension)");
    const char kind = arr.dtype().kind();
    if (kind == 'b' || kind == 'f' || kind == 'c')
      throw py::type_error("keys: an array of dtype " + std::string(py::str(arr.dtype())) +
                           " (allowed: integers from 0 to 2^64 - 1, or a sequence of str/bytes)");
    if (kind == 'u') {
      // In place when contiguous uint64; else one contiguous uint64 copy.
      auto contiguous = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(keys);
      if (!contiguous) throw py::error_already_set();
      b.ints = {contiguous.data(), static_cast<std::size_t>(contiguous.size())};
      b.owner = std::move(contiguous);
      b.integers = true;
      return b;
    }
    if (kind == 'i') {
      // Signed integers (pandas and Dask hand ids over as int64): accepted
      // when none is negative, and read in place as uint64 (the same bits).
      auto contiguous = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(keys);
      if (!contiguous) throw py::error_already_set();
      const std::int64_t* v = contiguous.data();
      const auto n = static_cast<std::size_t>(contiguous.size());
      for (std::size_t i = 0; i < n; ++i)
        if (v[i] < 0)
          throw py::value_error("keys[" + std::to_string(i) + "]: " + std::to_string(v[i]) +
                                " is negative (allowed: integers from 0 to 2^64 - 1)");
      b.ints = {reinterpret_cast<const std::uint64_t*>(v), n};
      b.owner = std::move(contiguous);
      b.integers = true;
      return b;
    }
  }
  if (PyUnicode_Check(keys.ptr()) || PyBytes_Check(keys.ptr()) || PyByteArray_Check(keys.ptr()))
    throw py::type_error("keys: a single str or bytes is one key, not a batch (use add()/contains(), or wrap it in a list)");
  // A tuple of the keys: it holds a reference to each, and nothing can change it
  // while the GIL is released.
  py::object tuple = py::reinterpret_steal<py::object>(PySequence_Tuple(keys.ptr()));
  if (!tuple) {
    PyErr_Clear();
    throw py::type_error("keys: a " + std::string(py::str(py::type::of(keys).attr("__name__"))) +
                         " is not a batch of keys (allowed: a numpy uint64 array, or a sequence of str/bytes or ints)");
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(tuple.ptr());
  bool any_int = false, any_bytes = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PyTuple_GET_ITEM(tuple.ptr(), i);
    if (PyUnicode_Check(item) || PyBytes_Check(item)) {
      any_bytes = true;
      b.views.push_back(*byte_key(item));
    } else if (PyByteArray_Check(item)) {
      throw py::type_error("keys[" + std::to_string(i) + "]: a bytearray in a batch (it may change while the batch runs; pass bytes(x))");
    } else {
      any_int = true;
      b.int_store.push_back(int_key(item));
    }
    if (any_int && any_bytes)
      throw py::type_error("keys[" + std::to_string(i) + "]: a batch mixes integer and str/bytes keys (allowed: one kind)");
  }
  b.integers = any_int;
  if (b.integers) b.ints = b.int_store;
  b.owner = std::move(tuple);
  return b;
}

key_batch batch_of(const py_keys& keys) { return batch_of(keys.h); }

// A whole number argument (m, k, buckets...) from lo to hi: ValueError
// naming it and the range when it is outside (negative included), TypeError
// when it is not a whole number.
std::uint64_t whole(const char* name, const py_whole& v, std::uint64_t lo = 0,
                    std::uint64_t hi = std::numeric_limits<std::uint64_t>::max()) {
  const py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(v.h.ptr()));
  if (!i) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + ": a " + std::string(py::str(py::type::of(v.h).attr("__name__"))) +
                         " is not a whole number");
  }
  const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
  const bool past = u == static_cast<unsigned long long>(-1) && PyErr_Occurred();
  if (past) PyErr_Clear();
  if (past || u < lo || u > hi)
    throw py::value_error(std::string(name) + ": " + std::string(py::str(i)) + " is out of range (" +
                          std::to_string(lo) + " to " + std::to_string(hi) + ")");
  return static_cast<std::uint64_t>(u);
}
unsigned whole32(const char* name, const py_whole& v, unsigned lo, unsigned hi) {
  return static_cast<unsigned>(whole(name, v, lo, hi));
}

// A key's 16 bytes, as key_arg() reads them.
py::bytes key_bytes(const sip_key& k) {
  char raw[16];
  for (int i = 0; i < 8; ++i) {
    raw[i] = static_cast<char>(k.k0 >> (8 * i));
    raw[8 + i] = static_cast<char>(k.k1 >> (8 * i));
  }
  return py::bytes(raw, 16);
}

std::optional<sip_key> key_arg(const std::optional<py::bytes>& key) {
  if (!key) return std::nullopt;
  const std::string s = *key;
  if (s.size() != 16)
    throw py::value_error("key: " + std::to_string(s.size()) + " bytes (allowed: exactly 16 bytes, a SipHash-2-4 key)");
  std::array<unsigned char, 16> raw{};
  for (std::size_t i = 0; i < 16; ++i) raw[i] = static_cast<unsigned char>(s[i]);
  return sip_key::from_bytes(raw);
}

// ---- the handle ---------------------------------------------------------------

template <class F>
struct handle {
  io::filter_file file;
  mutable std::shared_mutex lock;

  explicit handle(io::filter_file f) : file(std::move(f)) {}
  // A new filter: its first keys decide its key type (one made already
  // holding items, from hashes, cannot say what they were).
  explicit handle(F f) : file{io::any_filter(std::move(f)), 1} {
    file.keys = items() == 0 ? io::key_type::none : io::key_type::unrecorded;
  }

  // Records keys of type K (std::string_view or std::uint64_t) going in;
  // the caller holds the lock alone.
  template <class K>
  void adding() {
    file.keys = io::with_keys(file.keys, std::is_same_v<K, std::uint64_t> ? io::key_type::integers
                                                                          : io::key_type::strings);
  }

  F& f() { return std::get<F>(file.filter); }
  const F& f() const { return std::get<F>(file.filter); }

  // Every kind counts its own items (filter_api.hpp).
  std::uint64_t items() const { return f().items(); }
};

// Runs fn with the GIL released and the lock taken (shared or alone).
template <bool Exclusive, class H, class Fn>
decltype(auto) unlocked(H& h, Fn&& fn) {
  py::gil_scoped_release no_gil;
  if constexpr (Exclusive) {
    std::unique_lock guard(h.lock);
    return fn();
  } else {
    std::shared_lock guard(h.lock);
    return fn();
  }
}

// format= of to_bytes() and save(): "bloomlab", or the kind's own system's
// layout (io::kind_info::own_form, "parquet" for a ParquetFilter).
io::layout layout_arg(const io::filter_file& f, const std::string& format) {
  const io::kind_info& row = io::row_of(f.filter);
  if (const std::optional<io::layout> as = io::layout_named(row, format)) return *as;
  throw py::value_error("format: '" + format + "' is not a layout of a " + std::string(row.name) +
                        " filter (allowed for it: " + io::layout_names(row) + ")");
}

py::bytes to_bytes(const io::filter_file& f, io::layout as = io::layout::bloomlab) {
  const std::vector<std::uint8_t> bytes = as == io::layout::own ? io::encode_own(f) : io::encode(f);
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

io::filter_file from_bytes(const py::bytes& data, const std::optional<sip_key>& key) {
  const std::string_view s = data;
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  return io::decode(bytes, key);
}

// funnel= of load() and from_bytes(): a Guava funnel by name, or none.
std::optional<guava_funnel> funnel_arg(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  const std::optional<guava_funnel> f = guava_funnel_named(*name);
  if (!f) throw py::value_error("funnel: '" + *name + "' is not a Guava funnel (allowed: string or long)");
  return f;
}

// A Guava filter read from Guava's own bytes takes the funnel given (they do
// not record one); one read from a bloomlab file keeps its own, which a
// funnel given must match. Another kind takes no funnel.
void with_funnel(io::filter_file& f, std::optional<guava_funnel> funnel) {
  auto* g = std::get_if<guava_filter>(&f.filter);
  if (g == nullptr) {
    if (funnel) throw py::value_error("funnel: only a Guava filter has one");
    return;
  }
  if (f.from == io::layout::own) g->set_funnel(funnel.value_or(guava_funnel::string));
  else if (funnel && *funnel != g->funnel())
    throw py::value_error(std::string("funnel: '") + guava_funnel_name(*funnel) + "' differs from the file's, '" +
                          guava_funnel_name(g->funnel()) + "'");
}

// A static filter as this module holds it: the filter, and the type of the
// keys it was built from (io::key_type), which a file records.
template <class S>
struct static_held : S {
  io::key_type keys = io::key_type::unrecorded;
  static_held(S f, io::key_type k) : S(std::move(f)), keys(k) {}
  io::filter_file file() const {
    return {io::any_filter(static_cast<const S&>(*this)), 1, io::layout::bloomlab, keys};
  }
};

// The kinds bound as handle<F>: every kind that takes keys after it is made
// (the static kinds are static_held<S>). A kind the registry has and this
// module does not bind stops the import with pybind11's "unregistered type"
// (the list of kinds at the end of bind() asks for every row's class).
template <class F>
inline constexpr bool is_bound = dynamic_filter<F>;

// A loaded or decoded filter as the Python object of its kind.
py::object wrap(io::filter_file f) {
  return std::visit(
      [&](auto& filter) -> py::object {
        using F = std::decay_t<decltype(filter)>;
        (void)filter;
        if constexpr (is_bound<F>)
          return py::cast(std::make_unique<handle<F>>(std::move(f)));
        else if constexpr (requires { F::fingerprint_bits; })  // the static kinds, with their key type
          return py::cast(static_held<F>(std::move(filter), f.keys));
        else
          throw py::value_error("a " + std::string(io::kind_name(io::kind_of(f.filter))) +
                                " filter, a kind this module does not have");
      },
      f.filter);
}

// The name of a kind's class in the module: its row's py_class (the
// registry's strings are literals, so data() ends in a NUL).
template <class F>
const char* class_name() {
  return io::row_of_type<F>().py_class.data();
}

// ---- single-key calls without pybind11's dispatcher ----------------------------
//
// add(), contains() and `in` are the calls a Python loop makes one key at a
// time, where pybind11's general dispatch (argument records, overload
// resolution) costs several times the filter's own work. They are plain
// CPython methods (METH_O) on the class instead, reaching the C++ object
// through pybind11's instance record; errors become the same Python
// exceptions pybind11 would raise.

template <class Fn>
PyObject* guarded(Fn&& fn) {
  try {
    return fn();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::overflow_error& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// The handle behind self (the method descriptor has checked self's type).
template <class F>
handle<F>& handle_of(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  auto* h = static_cast<handle<F>*>(inst->get_value_and_holder().value_ptr());
  if (h == nullptr) throw py::type_error("the filter was not initialised (a subclass must call __init__)");
  return *h;
}

// None, as the engine's add returns nothing; for the cuckoo filter, whether
// it stored the key (False: the table is full, nothing changed).
template <class F>
PyObject* fast_add(PyObject* self, PyObject* key) {
  return guarded([&]() -> PyObject* {
    handle<F>& h = handle_of<F>(self);
    if constexpr (fallible_filter<F>) {
      const bool stored = with_key(key, [&](auto k) {
        std::unique_lock guard(h.lock);
        h.template adding<decltype(k)>();
        return engine::add(h.f(), k);
      });
      return PyBool_FromLong(stored);
    } else {
      with_key(key, [&](auto k) {
        std::unique_lock guard(h.lock);
        h.template adding<decltype(k)>();
        engine::add(h.f(), k);
      });
      Py_RETURN_NONE;
    }
  });
}

template <class F>
PyObject* fast_contains(PyObject* self, PyObject* key) {
  return guarded([&] {
    const handle<F>& h = handle_of<F>(self);
    const bool maybe = with_key(key, [&](auto k) {
      std::shared_lock guard(h.lock);
      return engine::contains(h.f(), k);
    });
    return PyBool_FromLong(maybe);
  });
}

inline constexpr const char* add_doc =
    "add(key). Adds one key (str, bytes or an int from 0 to 2^64 - 1); returns None, or, for a cuckoo filter, "
    "whether it stored the key (False: the table is full and nothing changed).";
inline constexpr const char* contains_doc =
    "contains(key) -> bool. True when the key may have been added (a false positive is possible), False when it "
    "certainly was not.";

template <class F>
PyMethodDef fast_methods[] = {
    {"add", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_add<F>)), METH_O, add_doc},
    {"contains", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_contains<F>)), METH_O, contains_doc},
    {"__contains__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_contains<F>)), METH_O,
     contains_doc},
};

template <class F>
void bind_fast(py::class_<handle<F>>& c) {
  auto* type = reinterpret_cast<PyTypeObject*>(c.ptr());
  for (PyMethodDef& def : fast_methods<F>) {
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &def));
    if (!descr) throw py::error_already_set();
    // Set through the type, so that `in` (sq_contains) follows __contains__.
    c.attr(def.ml_name) = descr;
  }
}

template <class F>
void bind_combine(py::class_<handle<F>>& c);
template <class F>
void bind_clear(py::class_<handle<F>>& c);

// The verbs every kind has, and those a kind has by its engine type's names
// (filter_api.hpp): a kind's own class adds its constructor and its own.
template <class F>
py::class_<handle<F>> bind_common(py::module_& m, const char* doc, const char* fpr_doc) {
  using H = handle<F>;
  py::class_<H> c(m, class_name<F>(), doc);
  bind_fast<F>(c);
  // k, in every kind whose engine type has k(): the bits a key sets or probes.
  if constexpr (requires(const F& f) { f.k(); })
    c.def_property_readonly("k", [](const H& h) { return h.f().k(); }, "The bits a key sets or probes (k).");
  if constexpr (requires(const F& f) { f.m(); })
    c.def_property_readonly("m", [](const H& h) { return h.f().m(); }, "m: bits (counters for a counting filter).");
  if constexpr (requires(const F& f) { f.blocks(); }) {
    c.def_property_readonly("blocks", [](const H& h) { return h.f().blocks(); }, "Blocks of block_bits bits.");
    c.def_property_readonly_static("block_bits", [](const py::object&) { return F::block_bits; });
  }
  if constexpr (dynamic_filter<F>) bind_clear(c);
  if constexpr (requires(F& a, const F& b) {
                  a |= b;
                  a &= b;
                })
    bind_combine(c);
  // bits_set, in every kind with a bit array; estimate_n and its error in
  // every kind whose bits estimate n (filter_api.hpp).
  if constexpr (requires(const F& f) { f.bits_set(); })
    c.def(
        "bits_set", [](const H& h) { return unlocked<false>(h, [&] { return h.f().bits_set(); }); },
        "Bits set to 1 (X).");
  if constexpr (estimating_filter<F>) {
    c.def(
        "estimate_n", [](const H& h) { return unlocked<false>(h, [&] { return h.f().estimate_n(); }); },
        "The distinct keys the bits imply (Swamidass and Baldi's -(m/k) ln(1 - X/m), or the form of the system the "
        "kind follows: Guava's approximateElementCount() before its rounding); 0 when empty, inf once every bit is "
        "set. `bloomlab info` prints it as estimated_items.");
    c.def(
        "estimate_n_se", [](const H& h) { return unlocked<false>(h, [&] { return h.f().estimate_n_se(); }); },
        "The standard error of estimate_n() (the delta method; inf once every bit is set).");
  }
  c.def(
          "add_many",
          [](H& h, const py_keys& keys) -> py::object {
            key_batch b = batch_of(keys);
            const auto add_all = [&] {
              if (b.size() > 0) {
                if (b.integers) h.template adding<std::uint64_t>();
                else h.template adding<std::string_view>();
              }
              if (b.integers) return engine::add_many(h.f(), b.ints);
              return engine::add_many(h.f(), std::span<const std::string_view>(b.views));
            };
            if constexpr (fallible_filter<F>) {
              return py::int_(unlocked<true>(h, add_all));
            } else {
              unlocked<true>(h, add_all);
              return py::none();
            }
          },
          "keys"_a,
          "Adds every key of a batch, in order: a numpy uint64 array (read in place) or a sequence of str/bytes "
          "(or ints). Returns None, or, for a cuckoo filter, how many keys it stored (fewer than given: the table "
          "filled). The GIL is released while the filter works.")
      .def(
          "contains_many",
          [](const H& h, const py_keys& keys) {
            key_batch b = batch_of(keys);
            py::array_t<bool> out(static_cast<py::ssize_t>(b.size()));
            const std::span<bool> o(out.mutable_data(), b.size());
            unlocked<false>(h, [&] {
              if (b.integers)
                engine::contains_many(h.f(), b.ints, o);
              else
                engine::contains_many(h.f(), std::span<const std::string_view>(b.views), o);
            });
            return out;
          },
          "keys"_a,
          "contains() of every key of a batch (a numpy uint64 array or a sequence of str/bytes or ints), as a numpy "
          "bool array. The GIL is released while the filter works.")
      .def(
          "bits",
          [](const H& h) {
            std::shared_lock guard(h.lock);
            return engine::bits(h.f());
          },
          "The memory the filter holds, in bits: m (classic, blocked), m * width (counting), slots * 32 (cuckoo: a "
          "32-bit word a slot; packed_bits() is slots * f), "
          "the sum of the stages' m (scalable).")
      .def(
          "items",
          [](const H& h) {
            std::shared_lock guard(h.lock);
            return h.items();
          },
          "Keys added, repeats included (a filter cannot tell a repeat), minus keys removed; the scalable filter "
          "skips a key that already reads present, the cuckoo filter one it had no room for. len(f) is the same.")
      .def("__len__",
           [](const H& h) {
             std::shared_lock guard(h.lock);
             return h.items();
           })
      .def(
          "fpr",
          [](const H& h) {
            return unlocked<false>(h, [&] { return engine::fpr(h.f()); });
          },
          fpr_doc)
      .def(
          "to_bytes",
          [](const H& h, const std::string& format) {
            std::shared_lock guard(h.lock);
            return to_bytes(h.file, layout_arg(h.file, format));
          },
          py::kw_only(), "format"_a = "bloomlab",
          "The filter in bloomlab's file format (docs/format.md): what save() writes. format='parquet' (a "
          "ParquetFilter only): as a Parquet file stores it, the Thrift header and the bitset.")
      .def(
          "save",
          [](const H& h, const std::string& path, const std::string& format) {
            const io::layout as = layout_arg(h.file, format);
            unlocked<false>(h, [&] { io::save(path, h.file, as); });
          },
          "path"_a, py::kw_only(), "format"_a = "bloomlab",
          "Writes the filter to path in bloomlab's file format (atomically: a temporary file renamed over path); "
          "`bloomlab info/query PATH` reads it. format='parquet' (a ParquetFilter only) writes the layout a Parquet "
          "file stores; load() reads either.")
      .def(
          "__eq__",
          [](const H& a, const py::object& other) -> py::object {
            if (!py::isinstance<H>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const H& b = other.cast<const H&>();
            if (&a == &b) return py::bool_(true);
            std::shared_lock ga(a.lock), gb(b.lock);
            return py::bool_(engine::equal(a.f(), b.f()));
          },
          "other"_a, "Same kind, parameters, key and contents.")
      .def("__hash__", [](const H&) -> py::object { throw py::type_error("unhashable type: a filter changes"); })
      .def(py::pickle(
          // The file's bytes, and a keyed filter's key: a file names its key
          // only by its public id, and a pickle must come back whole.
          [](const H& h) {
            std::shared_lock guard(h.lock);
            const sip_key* secret = io::key_of(h.file.filter);
            return py::make_tuple(to_bytes(h.file), secret ? py::object(key_bytes(*secret)) : py::object(py::none()));
          },
          [](const py::tuple& state) {
            if (state.size() != 2) throw py::value_error("pickled data: a state of " + std::to_string(state.size()) + " items (allowed: 2)");
            io::filter_file f = from_bytes(state[0].cast<py::bytes>(), key_arg(state[1].cast<std::optional<py::bytes>>()));
                        if (!std::holds_alternative<F>(f.filter))
                          throw py::value_error("pickled data holds a " + std::string(io::kind_name(io::kind_of(f.filter))) +
                                                " filter, not a " + class_name<F>());
                        return std::make_unique<H>(std::move(f));
                      }))
      .def("__copy__",
           [](const H& h) {
             std::shared_lock guard(h.lock);
             return std::make_unique<H>(io::filter_file(h.file));
           })
      .def("__deepcopy__", [](const H& h, const py::object&) {
        std::shared_lock guard(h.lock);
        return std::make_unique<H>(io::filter_file(h.file));
      });
  c.def_property_readonly(
      "keyed", [](const H& h) { return io::key_of(h.file.filter) != nullptr; }, "Whether the filter hashes with a secret key (SipHash-2-4).");
  c.def_property_readonly(
      "key_type",
      [](const H& h) {
        std::shared_lock guard(h.lock);
        return std::string(io::key_type_name(h.file.keys));
      },
      "The type of the keys added, as save() records it and `bloomlab query` reads items: 'strings' (str/bytes), "
      "'integers' (ints, integer arrays), 'none yet' (a new filter), or 'not recorded' (keys of both types, a file "
      "written before format version 4, or another system's layout).");
  return c;
}

// | & |= &= for the kinds whose union and intersection are defined.
template <class F>
void bind_combine(py::class_<handle<F>>& c) {
  using H = handle<F>;
  const auto combine = [](const H& a, const H& b, bool is_or) {
    auto out = std::make_unique<H>(io::filter_file(a.file));
    if (&a == &b) return out;
    std::shared_lock gb(b.lock);
    if (is_or)
      engine::or_into(out->f(), b.f());
    else
      engine::and_into(out->f(), b.f());
    out->file.keys = io::with_keys(a.file.keys, b.file.keys);
    return out;
  };
  const auto in_place = [](H& a, const H& b, bool is_or) {
    if (&a == &b) return;
    std::unique_lock ga(a.lock, std::defer_lock);
    std::shared_lock gb(b.lock, std::defer_lock);
    std::lock(ga, gb);
    if (is_or)
      engine::or_into(a.f(), b.f());
    else
      engine::and_into(a.f(), b.f());
    a.file.keys = io::with_keys(a.file.keys, b.file.keys);
  };
  c.def(
       "__or__", [combine](const H& a, const H& b) { return combine(a, b, true); }, py::is_operator(),
       "The union: bit for bit the filter built from both key sets (counting: counters added, saturating). "
       "The parameters must match, else ValueError names what differs.")
      .def(
          "__and__", [combine](const H& a, const H& b) { return combine(a, b, false); }, py::is_operator(),
          "The intersection: bits (counting: the smaller counter) set in both. It holds every bit of the filter of "
          "the common keys, perhaps more, so its rate is at least that filter's.")
      .def(
          "__ior__",
          [in_place](H& a, const H& b) -> H& {
            in_place(a, b, true);
            return a;
          },
          py::is_operator(), py::return_value_policy::reference)
      .def(
          "__iand__",
          [in_place](H& a, const H& b) -> H& {
            in_place(a, b, false);
            return a;
          },
          py::is_operator(), py::return_value_policy::reference);
}

template <class F>
void bind_clear(py::class_<handle<F>>& c) {
  c.def(
      "clear",
      [](handle<F>& h) {
        std::unique_lock guard(h.lock);
        engine::clear(h.f());
        h.file.keys = io::key_type::none;
      },
      "Empties the filter (its parameters stay).");
}

template <class F>
void bind_remove(py::class_<handle<F>>& c, const char* doc) {
  c.def(
      "remove",
      [](handle<F>& h, const py_key& key) {
        return with_key(key, [&](auto k) {
          std::unique_lock guard(h.lock);
          return engine::remove(h.f(), k);
        });
      },
      "key"_a, doc);
}


// The partitioned build (engine_calls.hpp): hashes, their slices, a slice's
// words, and a filter put together from its slices.
std::uint64_t check_slices(std::uint64_t slices, std::uint64_t blocks) {
  if (slices < 1 || slices > blocks)
    throw py::value_error("slices: " + std::to_string(slices) + " is out of range (1 to the filter's " +
                          std::to_string(blocks) + " blocks)");
  return slices;
}

// The blocks of a filter of m bits, without making one.
template <class F>
std::uint64_t blocks_of(std::uint64_t m) {
  if (m < 1 || m > filter_max_m)
    throw py::value_error("m: " + std::to_string(m) + " bits is out of range (1 to " + std::to_string(filter_max_m) + ")");
  return (m + F::block_bits - 1) / F::block_bits;
}

template <class F>
void bind_slices(py::class_<handle<F>>& c) {
  using H = handle<F>;
  c.def(
       "_hashes",
       [](const H& h, const py_keys& keys) {
         key_batch b = batch_of(keys);
         py::array_t<std::uint64_t> out(static_cast<py::ssize_t>(b.size()));
         std::uint64_t* o = out.mutable_data();
         unlocked<false>(h, [&] {
           if (b.integers)
             for (std::size_t i = 0; i < b.ints.size(); ++i) o[i] = engine::key_hash(h.f(), b.ints[i]);
           else
             for (std::size_t i = 0; i < b.views.size(); ++i) o[i] = engine::key_hash(h.f(), b.views[i]);
         });
         return out;
       },
       "keys"_a,
       "The filter's 64-bit hash of each key (keyed when the filter is), as a numpy uint64 array: what the "
       "partitioned build routes and builds slices from.")
      .def_static(
          "_slices_of",
          [](const py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>& hs, std::uint64_t m,
             std::uint64_t slices) {
            const std::uint64_t blocks = blocks_of<F>(m);
            check_slices(slices, blocks);
            py::array_t<std::uint64_t> out(hs.size());
            const std::uint64_t* in = hs.data();
            std::uint64_t* o = out.mutable_data();
            const auto n = static_cast<std::size_t>(hs.size());
            py::gil_scoped_release no_gil;
            for (std::size_t i = 0; i < n; ++i) o[i] = engine::slice_of(in[i], slices, blocks);
            return out;
          },
          "hashes"_a, "m"_a, "slices"_a,
          "The slice (0 to slices - 1) each hash falls in, for a filter of m bits cut into `slices` runs of whole "
          "blocks: slice s holds blocks floor(s B / S) to floor((s + 1) B / S) - 1.")
      .def_static(
          "_build_slice",
          [](std::uint64_t m, std::uint64_t slices, std::uint64_t s, const py::list& hash_arrays) {
            const std::uint64_t blocks = blocks_of<F>(m);
            check_slices(slices, blocks);
            if (s >= slices)
              throw py::value_error("slice: " + std::to_string(s) + " is out of range (0 to " + std::to_string(slices - 1) + ")");
            const std::uint64_t first = engine::slice_first(s, slices, blocks);
            const std::uint64_t end = engine::slice_first(s + 1, slices, blocks);
            std::vector<py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>> arrays;
            for (const auto& a : hash_arrays)
              arrays.push_back(py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(a));
            py::array_t<std::uint64_t> words(static_cast<py::ssize_t>((end - first) * engine::block_words<F>()));
            std::uint64_t* w = words.mutable_data();
            std::uint64_t fresh = 0;
            {
              py::gil_scoped_release no_gil;
              std::fill(w, w + words.size(), 0);
              const std::span<std::uint64_t> span(w, static_cast<std::size_t>(words.size()));
              for (const auto& a : arrays)
                fresh += engine::add_hashes_to_slice<F>(span, first, blocks,
                                                        {a.data(), static_cast<std::size_t>(a.size())});
            }
            return py::make_tuple(words, fresh);
          },
          "m"_a, "slices"_a, "slice"_a, "hashes"_a,
          "The words of one slice of a filter of m bits, built from lists of hashes that all fall in it (in order), "
          "and how many read absent when set: (numpy uint64 array, int).")
      .def_static(
          "_from_slices",
          [](std::uint64_t m, const py::list& slices, std::uint64_t items, const std::optional<py::bytes>& key) {
            auto h = std::make_unique<H>(F(m, {}, key_arg(key)));
            std::size_t offset = 0;
            for (const auto& a : slices) {
              const auto words = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(a);
              engine::restore_words(h->f(), offset, {words.data(), static_cast<std::size_t>(words.size())});
              offset += static_cast<std::size_t>(words.size());
            }
            if (offset != h->f().words().size())
              throw py::value_error("slices: " + std::to_string(offset) + " words in all, for a filter of " +
                                    std::to_string(h->f().words().size()));
            h->f().set_items(items);
            h->file.keys = io::key_type::unrecorded;  // hashes do not say what their keys were
            return h;
          },
          "m"_a, "slices"_a, "items"_a = 0, py::kw_only(), "key"_a = py::none(),
          "A filter of m bits whose words are the slices' words, end to end (key: the key the hashes were made "
          "with).");
}

// ---- static filters (built once from a set; no add) ----------------------------

template <class S>
void bind_static(py::module_& m, const char* doc) {
  using SH = static_held<S>;
  py::class_<SH> c(m, class_name<S>(), doc);
  c.def(py::init([](const py_keys& keys, const std::optional<py::bytes>& key) {
          key_batch b = batch_of(keys);
          const auto secret = key_arg(key);
          const io::key_type type = b.size() == 0 ? io::key_type::none
                                    : b.integers  ? io::key_type::integers
                                                  : io::key_type::strings;
          py::gil_scoped_release no_gil;
          return SH(b.integers ? S(b.ints, secret) : S(std::span<const std::string_view>(b.views), secret), type);
        }),
        "keys"_a, py::kw_only(), "key"_a = py::none(),
        "Built from a set of keys (a numpy uint64 array or a sequence of str/bytes or ints; repeats are dropped). "
        "key: 16 bytes for SipHash-2-4.")
      .def(
          "contains",
          [](const SH& f, const py_key& key) { return with_key(key, [&](auto k) { return f.contains(k); }); },
          "key"_a, "True when the key may be in the set (rate 2^-f), False when it certainly is not.")
      .def("__contains__",
           [](const SH& f, const py_key& key) { return with_key(key, [&](auto k) { return f.contains(k); }); })
      .def(
          "contains_many",
          [](const SH& f, const py_keys& keys) {
            key_batch b = batch_of(keys);
            py::array_t<bool> out(static_cast<py::ssize_t>(b.size()));
            const std::span<bool> o(out.mutable_data(), b.size());
            py::gil_scoped_release no_gil;
            if (b.integers)
              f.contains_many(b.ints, o);
            else
              f.contains_many(std::span<const std::string_view>(b.views), o);
            return out;
          },
          "keys"_a, "contains() of every key of a batch, as a numpy bool array (the GIL released).")
      .def("bits", &S::bits, "Storage in bits: the fingerprint array's slots times f.")
      .def("items", &S::items, "Distinct keys it was built from.")
      .def("__len__", &S::items)
      .def("fpr", &S::fpr, "The rate of a key not in the set: 2^-f, whatever n (f = the fingerprint bits).")
      .def_property_readonly("keyed", &S::keyed)
      .def_property_readonly("seed", &S::seed, "The seed the fingerprint array was solved with.")
      .def_property_readonly(
          "string_hash", [](const SH& f) { return std::string(string_hash_name(f.strings())); },
          "How str/bytes keys are hashed: 'xxh3', or 'hash64' for a filter read from a file written before XXH3 "
          "(a keyed filter uses SipHash-2-4 whatever this says).")
      .def(
          "to_bytes", [](const SH& f) { return to_bytes(f.file()); },
          "The filter in bloomlab's file format (docs/format.md): what save() writes.")
      .def(
          "save",
          [](const SH& f, const std::string& path) {
            const io::filter_file file = f.file();
            py::gil_scoped_release no_gil;
            io::save(path, file);
          },
          "path"_a,
          "Writes the filter to path in bloomlab's file format (atomically); `bloomlab info/query PATH` reads it, "
          "and load() gives it back.")
      .def(
          "__eq__",
          [](const SH& a, const py::object& other) -> py::object {
            if (!py::isinstance<SH>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(static_cast<const S&>(a) == static_cast<const S&>(other.cast<const SH&>()));
          },
          "other"_a)
      .def("__hash__", [](const SH&) -> py::object { throw py::type_error("unhashable type: a filter"); })
      .def(py::pickle(
          [](const SH& f) {
            const auto fp = f.fingerprints();
            return py::make_tuple(f.items(), f.seed(),
                                  f.secret_key() ? py::object(key_bytes(*f.secret_key())) : py::object(py::none()),
                                  py::bytes(reinterpret_cast<const char*>(fp.data()), fp.size_bytes()),
                                  std::string(string_hash_name(f.strings())), static_cast<unsigned>(f.keys));
          },
          [](const py::tuple& state) {
            // 4 items: pickled before XXH3, when strings were hashed by hash64;
            // 5: before the key type was kept (not recorded).
            if (state.size() < 4 || state.size() > 6)
              throw py::value_error("pickled data: a state of " + std::to_string(state.size()) + " items (allowed: 4 to 6)");
            const unsigned keys = state.size() == 6 ? state[5].cast<unsigned>() : 0;
            if (keys > io::key_type_code_max)
              throw py::value_error("pickled data: key type code " + std::to_string(keys) + " (allowed: " +
                                    io::key_type_codes() + ")");
            const std::string hash = state.size() >= 5 ? state[4].cast<std::string>() : "hash64";
            if (hash != "xxh3" && hash != "hash64")
              throw py::value_error("pickled data: string hash '" + hash + "' (allowed: xxh3, hash64)");
            const std::string raw = state[3].cast<py::bytes>();
            using Fp = typename S::fingerprint_type;
            if (raw.size() % sizeof(Fp) != 0) throw py::value_error("pickled data: fingerprints of " + std::to_string(raw.size()) + " bytes");
            std::vector<Fp> fp(raw.size() / sizeof(Fp));
            std::memcpy(fp.data(), raw.data(), raw.size());
            return SH(S::restore(state[0].cast<std::uint64_t>(), state[1].cast<std::uint64_t>(),
                                 key_arg(state[2].cast<std::optional<py::bytes>>()), std::move(fp),
                                 hash == "hash64" ? string_hash::hash64 : string_hash::xxh3),
                      static_cast<io::key_type>(keys));
          }))
      .def_property_readonly(
          "key_type", [](const SH& f) { return std::string(io::key_type_name(f.keys)); },
          "The type of the keys it was built from, as save() records it: 'strings', 'integers', 'none yet' (built "
          "from no keys) or 'not recorded'.")
      .def("__repr__", [](const SH& f) {
        return std::string(class_name<S>()) + "(items=" + std::to_string(f.items()) +
               ", bits=" + std::to_string(f.bits()) + ")";
      });
}

// ---- sizing and rates -----------------------------------------------------------

void check_rate(const char* name, double p) {
  if (!(p > 0 && p < 1)) throw py::value_error(std::string(name) + ": " + detail::number(p) + " is out of range (0 < p < 1)");
}
void check_count(const char* name, double n, double most) {
  if (!(n >= 1 && n <= most))
    throw py::value_error(std::string(name) + ": " + detail::number(n) + " is out of range (1 to " + detail::number(most) + ")");
}
void check_k(unsigned long long k) {
  if (k < 1 || k > max_k)
    throw py::value_error("k: " + std::to_string(k) + " is out of range (1 to " + std::to_string(max_k) + ")");
}

// size(): the figures io::size_kind gives every kind sized from (n, p), the
// same as `bloomlab size --kind` prints, within what a file may hold.
py::dict size(double n, double p, const std::string& kind, bool prime) {
  check_count("n", n, 1e18);
  check_rate("p", p);
  const io::kind_info* row = io::find_kind(kind);
  if (row == nullptr || !io::sized_from_rate(*row)) {
    std::string allowed;
    for (const io::kind_info& r : io::kinds)
      if (io::sized_from_rate(r)) allowed.append(allowed.empty() ? "" : ", ").append(r.name);
    throw py::value_error("kind: '" + kind + "' (allowed: " + allowed + ")");
  }
  const auto out_of_reach = [&](const std::string& why) {
    return py::value_error("p: " + detail::number(p) + " is out of reach for n " + detail::number(n) + " as a " +
                           kind + " filter: " + why);
  };
  // No filter holds n keys at rate p in fewer than n log2(1/p) bits.
  const double least = n * std::log2(1 / p);
  if (!(least <= static_cast<double>(io::max_bits)))
    throw out_of_reach("it needs at least " + detail::number(least) +
                       " bits (allowed: at most 2^40 bits, the file format's limit)");
  io::kind_size z;
  try {
    z = io::size_kind(*row, n, p, prime);
  } catch (const std::invalid_argument& e) {
    throw out_of_reach(e.what());
  }
  if (z.m > io::max_bits)
    throw out_of_reach("it needs m = " + std::to_string(z.m) + " (allowed: at most 2^40, the file format's limit)");
  py::dict d;
  d["kind"] = kind;
  d["n"] = n;
  d["p"] = p;
  d["m"] = z.m;
  d["bits"] = z.bits;
  if (z.k) d["k"] = *z.k;
  if (z.fingerprint_bits) d["fingerprint_bits"] = *z.fingerprint_bits;
  d["bits_per_item"] = static_cast<double>(z.bits) / n;
  d["fpr"] = z.fpr;
  for (const auto& field : z.fields) std::visit([&](auto v) { d[py::str(field.first)] = v; }, field.second);
  return d;
}

void check_mnk(double m, double n, unsigned long long k) {
  check_count("m", m, static_cast<double>(bloom_filter::max_m));
  if (!(n >= 0 && std::isfinite(n))) throw py::value_error("n: " + detail::number(n) + " is out of range (0 or more)");
  check_k(k);
}

py::dict analyze(std::uint64_t m, std::uint64_t n, unsigned long long k) {
  check_mnk(static_cast<double>(m), static_cast<double>(n), k);
  const auto kk = static_cast<unsigned>(k);
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  if (static_cast<double>(n) * kk >= 9.2e18) throw py::value_error("n: k * n must stay below 2^63");
  double exact;
  {
    py::gil_scoped_release no_gil;
    exact = fpr_exact(m, n, kk);
  }
  py::dict d;
  d["m"] = m;
  d["n"] = n;
  d["k"] = kk;
  d["fill"] = fill_expected(dm, dn, kk);
  d["fpr_approx"] = fpr_approx(dm, dn, kk);
  d["fpr_fill"] = fpr_fill(dm, dn, kk);
  d["fpr_exact"] = exact;
  d["fpr_adversarial"] = fpr_adversarial(dm, dn, kk);
  d["bits_per_item"] = n == 0 ? std::numeric_limits<double>::infinity() : dm / dn;
  d["k_optimal"] = n == 0 ? std::numeric_limits<double>::infinity() : k_optimal(dm, dn);
  d["k_best"] = n == 0 ? max_k : k_best(dm, dn);
  return d;
}

// ---- the kinds with no class of their own ---------------------------------------
//
// A kind its row and its API describe whole (blocks of k bits a key, made
// from m and k, as the cache-line kind) gets its class here: its name from
// its row, a docstring from its row's summary and sizing and its header's
// rate formulas, the constructor (m, k, *, key=None), and bind_common's
// verbs. Its typing is written at build time (python/stubs.py). The kinds
// with a class of their own in bind() are own_classes; any other kind that
// lacks what bind_sized needs fails to compile here.
using own_classes = std::tuple<bloom_filter, counting_filter, cuckoo_filter, scalable_filter, blocked_filter,
                               blocked_filter_256, fuse8_filter, fuse16_filter, xor8_filter, parquet_filter,
                               rocksdb_filter, guava_filter>;
template <class F, class Tuple>
inline constexpr bool listed_in = false;
template <class F, class... T>
inline constexpr bool listed_in<F, std::tuple<T...>> = (std::same_as<F, T> || ...);

template <class F>
concept made_from_m_and_k = requires(std::uint64_t m, unsigned k, std::optional<sip_key> key) {
  F(m, k, key);
  F::max_k;
  F::block_bits;
  { F::rate_text } -> std::convertible_to<const char*>;
  { F::fill_rate_text } -> std::convertible_to<const char*>;
};

template <class F>
void bind_sized(py::module_& m) {
  static_assert(made_from_m_and_k<F>,
                "a kind with no Python class of its own needs a constructor (m, k, key), max_k, block_bits, "
                "rate_text and fill_rate_text; else give it a class in bind() and a place in own_classes");
  const io::kind_info& row = io::row_of_type<F>();
  const std::string name(row.py_class);
  // Kept for the module's life: pybind11 holds the docstrings' pointers.
  static const std::string doc = "The " + std::string(row.name) + " kind: " + std::string(row.summary) + ". " +
                                 name + "(m, k, key=None): m rounded up to whole " + std::to_string(F::block_bits) +
                                 "-bit blocks, k from 1 to " + std::to_string(F::max_k) +
                                 ". Rate of n random keys: " + F::rate_text + ". bloomlab.sized('" +
                                 std::string(row.name) + "', n=N, p=P): " + std::string(row.sizing) + ".";
  static const std::string fpr_doc = std::string("Estimated rate from the filter's state: ") + F::fill_rate_text + ".";
  bind_common<F>(m, doc.c_str(), fpr_doc.c_str())
      .def(py::init([](const py_whole& m_in, const py_whole& k_in, const std::optional<py::bytes>& key) {
             return std::make_unique<handle<F>>(
                 F(whole("m", m_in, 1, filter_max_m), whole32("k", k_in, 1, F::max_k), key_arg(key)));
           }),
           "m"_a, "k"_a, py::kw_only(), "key"_a = py::none())
      .def("__repr__", [name](const handle<F>& h) {
        return name + "(m=" + std::to_string(h.f().m()) + ", k=" + std::to_string(h.f().k()) +
               ", items=" + std::to_string(h.items()) + ")";
      });
}

template <class... F>
void bind_the_rest(py::module_& m, std::variant<F...>*) {
  (
      [&] {
        if constexpr (!listed_in<F, own_classes>) bind_sized<F>(m);
      }(),
      ...);
}

// ---- the module -----------------------------------------------------------------

void bind(py::module_& m) {
  m.doc() = "bloomlab's filter engine (C++), its sizing and rate formulas, and its file format.";

  py::register_exception<io::format_error>(m, "FormatError", PyExc_ValueError);
  py::register_exception<io::write_error>(m, "WriteError", PyExc_OSError);

  // classic
  auto classic = bind_common<bloom_filter>(
      m, "The classic Bloom filter: m bits, k positions a key (enhanced double hashing over MurmurHash3: x86_32, "
      "or x64_128 ('murmur128') where m and k make the 32-bit pair cost rate; SipHash-2-4 when keyed). BloomFilter(m, k, key=None). No false negatives; the rate of n random keys is about "
      "(1 - e^(-kn/m))^k (exact: analyze()).",
      "Estimated rate from the filter's state: (X/m)^k, X the bits set (the rate a key never added reads 'maybe', "
      "given these bits and independent uniform positions).");
  classic
      .def(py::init([](const py_whole& m_in, const py_whole& k_in, const std::optional<py::bytes>& key) {
             const std::uint64_t mm = whole("m", m_in, 1, filter_max_m);
             const unsigned k = whole32("k", k_in, 1, max_k);
             const auto secret = key_arg(key);
             return std::make_unique<handle<bloom_filter>>(
                 bloom_filter(mm, k, secret ? indexer::siphash(*secret) : indexer::for_size(mm, k)));
           }),
           "m"_a, "k"_a, py::kw_only(), "key"_a = py::none())
      .def_property_readonly("hash", [](const handle<bloom_filter>& h) { return std::string(name(h.f().index().hash)); })
      .def_property_readonly("scheme", [](const handle<bloom_filter>& h) { return std::string(name(h.f().index().kind)); })
      .def("__repr__", [](const handle<bloom_filter>& h) {
        return "BloomFilter(m=" + std::to_string(h.f().m()) + ", k=" + std::to_string(h.f().k()) +
               ", items=" + std::to_string(h.items()) + ")";
      });

  // counting
  auto counting = bind_common<counting_filter>(
      m, "The counting Bloom filter: m counters of `width` bits (1 to 8, default 4) at the classic filter's positions, "
      "so keys can be removed. CountingFilter(m, k, width=4, key=None). A counter that reaches 2^width - 1 stays "
      "there. Removing a key never added (a false positive) turns other keys into false negatives.",
      "Estimated rate from the filter's state: (X/m)^k, X the counters above zero.");
  counting
      .def(py::init([](const py_whole& m_in, const py_whole& k_in, const py_whole& width_in,
                       const std::optional<py::bytes>& key) {
             const std::uint64_t mm = whole("m", m_in, 1, filter_max_m);
             const unsigned k = whole32("k", k_in, 1, max_k), width = whole32("width", width_in, 1, counter_width_max);
             const auto secret = key_arg(key);
             return std::make_unique<handle<counting_filter>>(
                 counting_filter(mm, k, width, secret ? indexer::siphash(*secret) : indexer::for_size(mm, k)));
           }),
           "m"_a, "k"_a, "width"_a = py::int_(counter_width_default), py::kw_only(), "key"_a = py::none())
      .def_property_readonly("width", [](const handle<counting_filter>& h) { return h.f().width(); })
      .def("__repr__", [](const handle<counting_filter>& h) {
        return "CountingFilter(m=" + std::to_string(h.f().m()) + ", k=" + std::to_string(h.f().k()) +
               ", width=" + std::to_string(h.f().width()) + ", items=" + std::to_string(h.items()) + ")";
      });
  bind_remove(counting,
              "Decrements the key's counters. False (and nothing changes) when one is zero: the key was certainly "
              "never added. Remove only keys that were added.");

  // blocked
  const auto bind_blocked = [&m](auto tag, const char* doc) {
    using F = decltype(tag);
    auto c = bind_common<F>(
        m, doc,
        "Estimated rate from the filter's state: the mean over blocks of prod_j (ones in lane j / w), w the lane's "
        "bits. For n random keys it is about sum_i Pois(i; nB/m) (1 - (1 - 1/w)^i)^8 (bloomlab.fpr_split_block).");
    c.def(py::init([](const py_whole& m_in, const std::optional<py::bytes>& key) {
            return std::make_unique<handle<F>>(F(whole("m", m_in, 1, filter_max_m), {}, key_arg(key)));
          }),
          "m"_a, py::kw_only(), "key"_a = py::none())
        .def("__repr__", [](const handle<F>& h) {
          return class_name<F>() + std::string("(m=") + std::to_string(h.f().m()) +
                 ", items=" + std::to_string(h.items()) + ")";
        });
    bind_slices<F>(c);
  };
  bind_blocked(blocked_filter(1),
               "The blocked (split-block) Bloom filter: all of a key's 8 bits in one 512-bit block (one cache line), "
               "one bit in each 64-bit lane. BlockedFilter(m, key=None): m rounded up to whole blocks. Integer keys "
               "are hashed with the filter's own 64-bit integer hash. Rate of n random keys: sum_i Pois(i; nB/m) "
               "(1 - (1 - 1/64)^i)^8, B = 512.");
  bind_blocked(blocked_filter_256(1),
               "The blocked filter with 256-bit blocks (eight 32-bit lanes). BlockedFilter256(m, key=None). Rate of "
               "n random keys: sum_i Pois(i; nB/m) (1 - (1 - 1/32)^i)^8, B = 256.");

  // parquet
  auto parquet = bind_common<parquet_filter>(
      m, "Parquet's split-block Bloom filter (apache/parquet-format BloomFilter.md): a value's 8 bits in one "
      "256-bit block, one in each 32-bit word, placed by XXH64 (seed 0) of its plain encoding (str/bytes: the "
      "bytes; int: 8 bytes little-endian, an INT64). ParquetFilter(nbytes, key=None): nbytes a multiple of 32 "
      "from 32 to 128 MiB. size(n, p, kind='parquet') sizes as Arrow does (a power of two). bitset() gives the "
      "bytes a Parquet file stores after its BloomFilterHeader; ParquetFilter.from_bitset(b) reads them.",
      "Estimated rate from the filter's state: the mean over blocks of the product of its words' fills (ones / 32).");
  parquet
      .def(py::init([](const py_whole& bytes_in, const std::optional<py::bytes>& key) {
             return std::make_unique<handle<parquet_filter>>(parquet_filter(
                 whole("nbytes", bytes_in, parquet_filter::min_bytes, parquet_filter::max_bytes), key_arg(key)));
           }),
           "nbytes"_a, py::kw_only(), "key"_a = py::none())
      .def_static(
          "from_bitset",
          [](const py::bytes& b) {
            const std::string_view s = b;
            const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
            try {
              auto h = std::make_unique<handle<parquet_filter>>(parquet_filter::from_bytes(bytes));
              h->file.keys = io::key_type::unrecorded;  // a Parquet bitset does not say what its keys were
              return h;
            } catch (const std::invalid_argument& e) {
              throw py::value_error(e.what());
            }
          },
          "bitset"_a, "A filter from the bitset a Parquet file stores (items() is 0: a bitset does not count them).")
      .def(
          "bitset",
          [](const handle<parquet_filter>& h) {
            std::shared_lock guard(h.lock);
            const std::vector<std::uint8_t> b = h.f().bytes();
            return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
          },
          "The bitset as a Parquet file stores it: the 32-bit words, each little-endian.")
      .def("__repr__", [](const handle<parquet_filter>& h) {
        return "ParquetFilter(nbytes=" + std::to_string(h.f().bytes_size()) +
               ", items=" + std::to_string(h.items()) + ")";
      });

  // rocksdb
  auto rocks = bind_common<rocksdb_filter>(
      m, "RocksDB's Bloom filter for its table files (FastLocalBloom, format_version 5), bit for bit: a key's k bits "
      "in one 512-bit block, placed by RocksDB's Hash64 (its preview of XXH3; str/bytes: the bytes; int: its 8 "
      "little-endian bytes). RocksDBFilter(nbytes, k, key=None): nbytes a multiple of 64, k 1 to 30. "
      "RocksDBFilter.for_bits_per_key(n, bits_per_key) sizes as RocksDB's NewBloomFilterPolicy(bits_per_key) does "
      "for n keys; block() gives the filter block an SST file stores (bitset and 5-byte trailer), "
      "RocksDBFilter.from_block(b) reads one.",
      "Estimated rate from the filter's state: the mean over blocks of (ones / 512)^k.");
  rocks
      .def(py::init([](const py_whole& bytes_in, const py_whole& k_in, const std::optional<py::bytes>& key) {
             return std::make_unique<handle<rocksdb_filter>>(
                 rocksdb_filter(whole("nbytes", bytes_in, rocksdb_filter::block_bytes, rocksdb_filter::max_bytes),
                                whole32("k", k_in, 1, rocksdb_filter::max_k), key_arg(key)));
           }),
           "nbytes"_a, "k"_a, py::kw_only(), "key"_a = py::none())
      .def_static(
          "for_bits_per_key",
          [](const py_whole& n_in, double bits_per_key, const std::optional<py::bytes>& key) {
            try {
              return std::make_unique<handle<rocksdb_filter>>(rocksdb_filter::for_bits_per_key(
                  whole("n", n_in, 1, 1'000'000'000'000), bits_per_key, key_arg(key)));
            } catch (const std::invalid_argument& e) {
              throw py::value_error(e.what());
            }
          },
          "n"_a, "bits_per_key"_a, py::kw_only(), "key"_a = py::none(),
          "The filter RocksDB's NewBloomFilterPolicy(bits_per_key) makes for n distinct keys (1 to 100 bits a key).")
      .def_static(
          "from_block",
          [](const py::bytes& b) {
            const std::string_view s = b;
            const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
            try {
              auto h = std::make_unique<handle<rocksdb_filter>>(rocksdb_filter::from_block(bytes));
              h->file.keys = io::key_type::unrecorded;  // a RocksDB block does not say what its keys were
              return h;
            } catch (const std::invalid_argument& e) {
              throw py::value_error(e.what());
            }
          },
          "block"_a, "A filter from a FastLocalBloom filter block (items() is 0: a block does not count them).")
      .def(
          "block",
          [](const handle<rocksdb_filter>& h) {
            std::shared_lock guard(h.lock);
            const std::vector<std::uint8_t> b = h.f().block();
            return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
          },
          "The filter block as an SST file stores it: the bitset, then 0xff, 0, k, 0, 0.")
      .def_static(
          "hash", [](const py::bytes& b) { return rocksdb_filter::hash(std::string_view(b)); }, "key"_a,
          "RocksDB's Hash64 of the bytes (the preview XXH3, seed 0).")
      .def("__repr__", [](const handle<rocksdb_filter>& h) {
        return "RocksDBFilter(nbytes=" + std::to_string(h.f().bytes_size()) + ", k=" + std::to_string(h.f().k()) +
               ", items=" + std::to_string(h.items()) + ")";
      });

  // guava
  auto guava = bind_common<guava_filter>(
      m, "Guava's BloomFilter (com.google.common.hash, strategy MURMUR128_MITZ_64), bit for bit: a key's k positions "
      "from the two halves of MurmurHash3_x64_128 (seed 0) of its funnelled bytes (str: UTF-8, as "
      "Funnels.stringFunnel(UTF_8); bytes as they are; int: 8 bytes little-endian, as Funnels.longFunnel() writes a "
      "Java long, so a negative long is passed as x % 2**64). GuavaFilter(m, k, funnel='string', key=None): m bits "
      "rounded up to 64-bit longs, k from 1 to 255; sized(n, p, kind='guava') sizes as BloomFilter.create. "
      "to_bytes(format='guava') and save(path, format='guava') write what Guava's writeTo writes (readFrom reads "
      "it); load() and from_bytes() read it, with funnel='long' for a filter of longs. funnel records which of "
      "Guava's funnels the keys went through.",
      "Guava's expectedFpp(): (bits set / m)^k.");
  guava
      .def(py::init([](const py_whole& m_in, const py_whole& k_in, const std::string& funnel,
                       const std::optional<py::bytes>& key) {
             const std::optional<guava_funnel> f = guava_funnel_named(funnel);
             if (!f) throw py::value_error("funnel: '" + funnel + "' is not a Guava funnel (allowed: string or long)");
             return std::make_unique<handle<guava_filter>>(
                 guava_filter(whole("m", m_in, 1, guava_filter::max_m),
                              static_cast<unsigned>(whole("k", k_in, 1, guava_filter::max_k)), *f, key_arg(key)));
           }),
           "m"_a, "k"_a, "funnel"_a = "string", py::kw_only(), "key"_a = py::none())
      .def_property_readonly("funnel", [](const handle<guava_filter>& h) { return guava_funnel_name(h.f().funnel()); })
      .def("__repr__", [](const handle<guava_filter>& h) {
        return "GuavaFilter(m=" + std::to_string(h.f().m()) + ", k=" + std::to_string(h.f().k()) + ", funnel='" +
               guava_funnel_name(h.f().funnel()) + "', items=" + std::to_string(h.items()) + ")";
      });

  // cuckoo
  auto cuckoo = bind_common<cuckoo_filter>(
      m, "The cuckoo filter: `buckets` (a power of two) buckets of 4 slots, each empty or an f-bit fingerprint "
      "(f = fingerprint_bits, 4 to 32). CuckooFilter(buckets, fingerprint_bits=12, max_kicks=500, seed=1, key=None). "
      "add() returns False when the table is full (nothing changes). Rate bound 2*4/2^f.",
      "Estimated rate from the filter's state: 1 - (1 - q)^(2 b a), q = (2^f + 2)/4^f, b = 4 slots, a = the load.");
  cuckoo
      .def(py::init([](const py_whole& buckets_in, const py_whole& f_in, const py_whole& kicks_in,
                       const py_whole& seed_in, const std::optional<py::bytes>& key) {
             const std::uint64_t buckets = whole("buckets", buckets_in, 1, cuckoo_buckets_max), seed = whole("seed", seed_in);
             const unsigned f = whole32("fingerprint_bits", f_in, cuckoo_fingerprint_min, cuckoo_fingerprint_max);
             const unsigned kicks = whole32("max_kicks", kicks_in, 0, io::max_kicks);
             if (kicks > io::max_kicks)
               throw py::value_error("max_kicks: " + std::to_string(kicks) + " is out of range (0 to " +
                                     std::to_string(io::max_kicks) + ")");
             auto h = std::make_unique<handle<cuckoo_filter>>(cuckoo_filter(buckets, f, kicks, seed, key_arg(key)));
             h->file.kick_seed = seed;
             return h;
           }),
           "buckets"_a, "fingerprint_bits"_a = py::int_(cuckoo_fingerprint_default),
           "max_kicks"_a = py::int_(cuckoo_kicks_default), "seed"_a = py::int_(1), py::kw_only(), "key"_a = py::none())
      .def_property_readonly("buckets", [](const handle<cuckoo_filter>& h) { return h.f().buckets(); })
      .def_property_readonly("fingerprint_bits", [](const handle<cuckoo_filter>& h) { return h.f().fingerprint_bits(); })
      .def_property_readonly("max_kicks", [](const handle<cuckoo_filter>& h) { return h.f().max_kicks(); })
      .def("load", [](const handle<cuckoo_filter>& h) { return h.f().load(); }, "Share of the slots in use.")
      .def("packed_bits", [](const handle<cuckoo_filter>& h) { return h.f().packed_bits(); },
           "What a packed table of the same fingerprints would spend: slots * f bits (bits() is the memory held, "
           "a 32-bit word a slot).")
      .def("fpr_bound", [](const handle<cuckoo_filter>& h) { return h.f().fpr_bound(); },
           "The paper's bound on the rate at any load: 2b/2^f = 8/2^f.")
      .def("__repr__", [](const handle<cuckoo_filter>& h) {
        return "CuckooFilter(buckets=" + std::to_string(h.f().buckets()) + ", fingerprint_bits=" +
               std::to_string(h.f().fingerprint_bits()) + ", items=" + std::to_string(h.items()) + ")";
      });
  bind_remove(cuckoo,
              "Deletes one copy of the key's fingerprint. False when neither bucket holds it: the key was certainly "
              "never added. Remove only keys that were added.");

  // scalable
  auto scalable = bind_common<scalable_filter>(
      m, "The scalable Bloom filter: classic stages, stage i sized for n0*growth^i keys at p0*tighten^i, a new one "
      "made when the newest is full. ScalableFilter(n0, p0, growth, tighten, prime, key): the defaults are in the "
      "signature (growth and tighten are the engine's, as `bloomlab build --kind scalable` takes them). Planned rate "
      "1 - prod_i (1 - p0 r^i) < p0 / (1 - r). add() skips a key that reads present.",
      "Estimated rate from the filter's state: 1 - prod_i (1 - (X_i/m_i)^k_i) over the stages.");
  scalable
      .def(py::init([](double n0, double p0, double growth, double tighten, bool prime,
                       const std::optional<py::bytes>& key) {
             scalable_params sp;
             sp.n0 = n0;
             sp.p0 = p0;
             sp.growth = growth;
             sp.tighten = tighten;
             sp.prime = prime;
             if (const auto secret = key_arg(key)) sp.idx = indexer::siphash(*secret);
             if (!(n0 <= io::max_n0))
               throw py::value_error("n0: " + std::to_string(n0) + " is out of range (1 to 1e15)");
             return std::make_unique<handle<scalable_filter>>(scalable_filter(sp));
           }),
           "n0"_a = 1000.0, "p0"_a = 0.01, "growth"_a = scalable_growth_default,
           "tighten"_a = scalable_tighten_default, "prime"_a = true, py::kw_only(),
           "key"_a = py::none())
      .def_property_readonly("stages", [](const handle<scalable_filter>& h) { return h.f().stages().size(); })
      .def("fpr_bound", [](const handle<scalable_filter>& h) { return h.f().fpr_bound(); },
           "The plan's rate for the stages made so far: 1 - prod_i (1 - p0 r^i).")
      .def("fpr_limit", [](const handle<scalable_filter>& h) { return h.f().fpr_limit(); },
           "The plan's limit for any number of stages: p0 / (1 - r).")
      .def("__repr__", [](const handle<scalable_filter>& h) {
        return "ScalableFilter(n0=" + std::to_string(h.f().params().n0) + ", p0=" + std::to_string(h.f().params().p0) +
               ", stages=" + std::to_string(h.f().stages().size()) + ", items=" + std::to_string(h.items()) + ")";
      });

  // every other kind: from its row
  bind_the_rest(m, static_cast<io::any_filter*>(nullptr));

  // static
  bind_static<fuse8_filter>(m,
                            "The binary fuse filter with 8-bit fingerprints (3-wise), built once from a set: 9.04 bits "
                            "a key at 10^6 keys, 9.5 at 10^5 (more for fewer keys), rate 2^-8 = 0.39%. No add; save(), to_bytes() and load() use the file format.");
  bind_static<fuse16_filter>(m,
                             "The binary fuse filter with 16-bit fingerprints, built once from a set: 18.1 bits "
                             "a key at 10^6 keys, 19.0 at 10^5, rate 2^-16. No add; save(), to_bytes() and load() use the file format.");
  bind_static<xor8_filter>(m,
                           "The xor filter with 8-bit fingerprints, built once from a set: 9.84 bits a key (for 10^5 keys and more), "
                           "rate 2^-8. No add; save(), to_bytes() and load() use the file format.");

  // files
  m.def(
      "load",
      [](const std::string& path, const std::optional<py::bytes>& key, const std::optional<std::string>& funnel) {
        const auto secret = key_arg(key);
        const std::optional<guava_funnel> f_guava = funnel_arg(funnel);
        std::optional<io::filter_file> f;
        {
          py::gil_scoped_release no_gil;
          f.emplace(io::load(path, secret));
        }
        with_funnel(*f, f_guava);
        return wrap(std::move(*f));
      },
      "path"_a, py::kw_only(), "key"_a = py::none(), "funnel"_a = py::none(),
      "Reads a filter file (bloomlab's format, as `bloomlab build` and save() write it, or a kind's own system's: "
      "a Parquet filter as a column chunk stores it, the bytes Guava's BloomFilter.writeTo wrote); returns the "
      "filter object of its kind. A keyed filter needs its 16-byte key. funnel ('string' or 'long'): the funnel "
      "of a Guava filter's keys, which Guava's bytes do not record ('string' when not given); a bloomlab file "
      "records it, and a funnel given must match.");
  m.def(
      "from_bytes",
      [](const py::bytes& data, const std::optional<py::bytes>& key, const std::optional<std::string>& funnel) {
        const std::optional<guava_funnel> f_guava = funnel_arg(funnel);
        io::filter_file f = from_bytes(data, key_arg(key));
        with_funnel(f, f_guava);
        return wrap(std::move(f));
      },
      "data"_a, py::kw_only(), "key"_a = py::none(), "funnel"_a = py::none(),
      "A filter from the bytes of a filter file (to_bytes(), in either layout); funnel as load() takes it.");

  // formulas
  m.def("size", &size, "n"_a, "p"_a, "kind"_a = "classic", "prime"_a = false,
        "Sizing for n keys at rate p, as `bloomlab build --n --p` sizes, with the figures of `bloomlab size --kind K "
        "--json`: m (the kind's m: counters for a counting filter, else bits), bits (the array in bits), k or "
        "fingerprint_bits, bits_per_item (bits / n), fpr (the kind's rate for n keys), and the kind's own fields "
        "(blocks, width, buckets, ...). classic/counting: m = ceil(n (-ln p)/(ln 2)^2) (prime-rounded if asked), k the "
        "whole k nearest (m/n) ln 2 with the lower (1 - e^(-kn/m))^k. blocked/blocked256: the least whole number of "
        "blocks with sum_i Pois(i; nB/m) (1 - (1 - 1/w)^i)^8 <= p. cuckoo: f = ceil(log2(8/p)), buckets the least power "
        "of two holding n at 95% load.");
  m.def("analyze", &analyze, "m"_a, "n"_a, "k"_a,
        "The rates of a classic filter of m bits, n keys, k positions: fill = 1 - (1 - 1/m)^(kn); fpr_approx = "
        "(1 - e^(-kn/m))^k (Bloom); fpr_fill = fill^k; fpr_exact = E[(X/m)^k] for independent uniform positions "
        "(exact, Bose et al. 2008); fpr_adversarial = (kn/m)^k (every key chosen to set k new bits); k_optimal = "
        "(m/n) ln 2; k_best, the whole k with the lowest fpr_approx.");
  m.def(
      "fpr_approx",
      [](double mm, double n, unsigned long long k) {
        check_mnk(mm, n, k);
        return fpr_approx(mm, n, static_cast<unsigned>(k));
      },
      "m"_a, "n"_a, "k"_a, "Bloom's approximation (1 - e^(-kn/m))^k.");
  m.def(
      "fpr_fill",
      [](double mm, double n, unsigned long long k) {
        check_mnk(mm, n, k);
        return fpr_fill(mm, n, static_cast<unsigned>(k));
      },
      "m"_a, "n"_a, "k"_a, "The fill form (1 - (1 - 1/m)^(kn))^k; the true rate is above it for k >= 2.");
  m.def(
      "fpr_exact",
      [](std::uint64_t mm, std::uint64_t n, unsigned long long k) {
        check_mnk(static_cast<double>(mm), static_cast<double>(n), k);
        if (static_cast<double>(n) * static_cast<double>(k) >= 9.2e18) throw py::value_error("n: k * n must stay below 2^63");
        py::gil_scoped_release no_gil;
        return fpr_exact(mm, n, static_cast<unsigned>(k));
      },
      "m"_a, "n"_a, "k"_a, "The exact rate E[(X/m)^k], X the bits set by kn independent uniform positions.");
  m.def(
      "fpr_split_block",
      [](double mm, double n, unsigned lanes, unsigned lane_bits) {
        check_count("m", mm, static_cast<double>(bloom_filter::max_m));
        if (!(n >= 0 && std::isfinite(n))) throw py::value_error("n: " + detail::number(n) + " is out of range (0 or more)");
        if (lane_bits != 32 && lane_bits != 64) throw py::value_error("lane_bits: " + std::to_string(lane_bits) + " (allowed: 32, 64)");
        if (lanes < 1 || lanes > 64) throw py::value_error("lanes: " + std::to_string(lanes) + " is out of range (1 to 64)");
        return fpr_split_block(mm, n, lanes, lane_bits);
      },
      "m"_a, "n"_a, "lanes"_a = 8, "lane_bits"_a = 64,
      "The blocked filter's rate: sum_i Pois(i; lambda) (1 - (1 - 1/w)^i)^L, lambda = n L w / m (Putze, Sanders and "
      "Singler 2007).");
  m.def(
      "bits_per_item",
      [](double p) {
        check_rate("p", p);
        return bits_per_item(p);
      },
      "p"_a, "Bits per key of a classic filter at rate p with the best k: -ln p / (ln 2)^2.");
  m.attr("max_k") = max_k;
  m.attr("__version__") = std::string(bloomlab::version);  // the CLI's and the C++ package's

  // The kinds, from the registry (io::kinds): (name, class, takes keys
  // after it is made, its line of help, how sized() sizes it), in the
  // registry's order. bloomlab/__init__.py builds KINDS, kind_of(), sized()
  // and the package's help from it.
  py::list kinds;
  for (const io::kind_info& row : io::kinds) {
    const py::object cls = io::with_type(row, []<class F>(std::type_identity<F>) -> py::object {
      if constexpr (static_kind<F>)
        return py::type::of<static_held<F>>();
      else
        return py::type::of<handle<F>>();
    });
    kinds.append(py::make_tuple(std::string(row.name), cls, row.adds, std::string(row.summary),
                                std::string(row.sizing)));
  }
  m.attr("_kinds") = kinds;
  m.def(
      "_sized",
      [](const std::string& kind, double n, double p, const std::optional<py::bytes>& key) -> py::object {
        const io::kind_info* row = io::find_kind(kind);
        if (row == nullptr || !row->adds) {
          std::string allowed;
          for (const io::kind_info& r : io::kinds)
            if (r.adds) allowed.append(allowed.empty() ? "" : ", ").append(r.name);
          throw py::value_error("kind: '" + kind + "' (allowed: " + allowed + ")");
        }
        check_count("n", n, 1e18);
        check_rate("p", p);
        const auto secret = key_arg(key);
        return io::with_type(*row, [&]<class F>(std::type_identity<F>) -> py::object {
          if constexpr (static_kind<F>) {
            throw std::logic_error("_sized: a static kind");
          } else {
            auto h = std::make_unique<handle<F>>(F::for_rate(n, p, secret));
            return py::cast(h.release(), py::return_value_policy::take_ownership);
          }
        });
      },
      "kind"_a, "n"_a, "p"_a, "key"_a = py::none(),
      "An empty filter of a kind for n keys at rate p, made by the engine's F::for_rate (as `bloomlab build "
      "--kind KIND --n N --p P` makes it).");

  // Every public name above, and the version: what `from ._bloomlab import *`
  // gives the package, so a new kind's class is exported without a line of
  // its own in bloomlab/__init__.py.
  py::list names;
  for (const auto& item : m.attr("__dict__").cast<py::dict>()) {
    const auto name = item.first.cast<std::string>();
    if (!name.starts_with('_') || name == "__version__") names.append(name);
  }
  names.attr("sort")();
  m.attr("__all__") = names;
}

}  // namespace bloomlab::py_module

PYBIND11_MODULE(_bloomlab, m) { bloomlab::py_module::bind(m); }
