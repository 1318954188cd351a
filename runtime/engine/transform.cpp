// Fused conversion and scaling: one row function per (source type, target type, scaled), chosen
// at plan time. Conversions are direct (int64 -> float32 rounds once, not through float64) and
// follow element_types.h; scaling computes out = alpha * x + beta * out in the target type,
// each operation rounded to it as NumPy's ufuncs do (float16 and bfloat16 in float32, rounded
// after every operation), with beta == 0 never reading out.
//
// This file is compiled with -ffp-contract=off (runtime/CMakeLists.txt): a fused multiply-add
// would round alpha * x + beta * y once where NumPy rounds three times.
#include "runtime/engine/transform.h"

#include <complex>
#include <cstring>
#include <type_traits>

#include "gentt/error.h"
#include "runtime/engine/element_types.h"

namespace gentt::engine {

namespace {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

template <class T>
constexpr bool is_16bit_float = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The value of a 16-bit float as float32 (exact).
template <class T>
float to_float(T x) {
  if constexpr (std::is_same_v<T, Half>) return half_to_float(x.bits);
  else return bfloat16_to_float(x.bits);
}

// A real value of any source type as a real target type To (not complex).
template <class To, class From>
To convert_real(From x) {
  if constexpr (is_complex<From>::value) {
    return convert_real<To>(x.real());  // NumPy discards the imaginary part (with a warning)
  } else if constexpr (is_16bit_float<From>) {
    if constexpr (std::is_same_v<To, From>) return x;
    else return convert_real<To>(to_float(x));
  } else if constexpr (std::is_same_v<To, Half>) {
    if constexpr (std::is_same_v<From, float>) return Half{float_to_half(x)};
    else return Half{double_to_half(static_cast<double>(x))};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{float_to_bfloat16(static_cast<float>(x))};
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return float_to_int<To>(x);
  } else {
    return static_cast<To>(x);  // integers wrap modulo 2^bits (C++20); floats round to nearest
  }
}

template <class To, class From>
To convert(From x) {
  if constexpr (is_complex<To>::value) {
    using R = typename To::value_type;
    if constexpr (is_complex<From>::value) return To(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    else return To(convert_real<R>(x), R(0));
  } else {
    return convert_real<To>(x);
  }
}

// Parameters of a scaled row, in the target's compute type.
template <class C>
struct Scale {
  C alpha, beta;
};

template <class C>
C mul(C a, C b) {
  if constexpr (is_complex<C>::value)  // NumPy's formula (no C99 Annex G special cases)
    return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else
    return a * b;
}

// The type a target computes in, and how a computed value is rounded back to it.
template <class To>
using compute_t = std::conditional_t<is_16bit_float<To>, float, To>;

template <class To>
To round_to(compute_t<To> v) {
  if constexpr (std::is_same_v<To, Half>) return Half{float_to_half(v)};
  else if constexpr (std::is_same_v<To, BFloat16>) return BFloat16{float_to_bfloat16(v)};
  else return v;
}
template <class To>
compute_t<To> widen(To v) {
  if constexpr (is_16bit_float<To>) return to_float(v);
  else return v;
}

template <class From, class To, bool Scaled>
void row(const void* src, void* dst, std::int64_t n, const void* state) {
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  for (std::int64_t i = 0; i < n; ++i) {
    From x;
    std::memcpy(&x, s + i * static_cast<std::int64_t>(sizeof(From)), sizeof(From));
    To y = convert<To>(x);
    if constexpr (Scaled) {
      using C = compute_t<To>;
      const auto& sc = *static_cast<const Scale<C>*>(state);
      // Each product and the sum rounded to To, as NumPy's alpha * x + beta * out.
      C v = widen(round_to<To>(mul(sc.alpha, widen(y))));
      if (sc.beta != C(0)) {
        To old;
        std::memcpy(&old, d + i * static_cast<std::int64_t>(sizeof(To)), sizeof(To));
        const C b = widen(round_to<To>(mul(sc.beta, widen(old))));
        v = widen(round_to<To>(v + b));
      }
      y = round_to<To>(v);
    }
    std::memcpy(d + i * static_cast<std::int64_t>(sizeof(To)), &y, sizeof(To));
  }
}

// ---- the type table ------------------------------------------------------------------------------

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) for the C++ type of a dtype name; false when the name is not a number type.
template <class F>
bool with_type(const std::string& name, F&& f) {
  if (name == "int8") return f(Tag<std::int8_t>{}), true;
  if (name == "uint8") return f(Tag<std::uint8_t>{}), true;
  if (name == "int16") return f(Tag<std::int16_t>{}), true;
  if (name == "uint16") return f(Tag<std::uint16_t>{}), true;
  if (name == "int32") return f(Tag<std::int32_t>{}), true;
  if (name == "uint32") return f(Tag<std::uint32_t>{}), true;
  if (name == "int64") return f(Tag<std::int64_t>{}), true;
  if (name == "uint64") return f(Tag<std::uint64_t>{}), true;
  if (name == "float16") return f(Tag<Half>{}), true;
  if (name == "bfloat16") return f(Tag<BFloat16>{}), true;
  if (name == "float32") return f(Tag<float>{}), true;
  if (name == "float64") return f(Tag<double>{}), true;
  if (name == "complex64") return f(Tag<std::complex<float>>{}), true;
  if (name == "complex128") return f(Tag<std::complex<double>>{}), true;
  return false;
}

class RowTransform final : public Transform {
 public:
  std::int64_t out_elem_bytes() const override { return out_bytes_; }
  RowSink sink() const override { return RowSink{fn_, scale_.data(), out_bytes_}; }
  std::string describe() const override { return text_; }

  void (*fn_)(const void*, void*, std::int64_t, const void*) = nullptr;
  std::vector<unsigned char> scale_;  // a Scale<C>, or empty
  std::int64_t out_bytes_ = 0;
  std::string text_;
};

std::string complex_text(std::complex<double> v) {
  return v.imag() == 0 ? std::to_string(v.real()) : "(" + std::to_string(v.real()) + "," + std::to_string(v.imag()) + "i)";
}

}  // namespace

std::shared_ptr<const Transform> make_transform(const std::string& from, const std::string& to,
                                                std::complex<double> alpha, std::complex<double> beta) {
  const bool scaled = alpha != std::complex<double>(1.0) || beta != std::complex<double>(0.0);
  if (from == to && !scaled) return nullptr;
  auto t = std::make_shared<RowTransform>();
  bool to_known = false, from_known = false;
  with_type(to, [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    to_known = true;
    t->out_bytes_ = sizeof(To);
    if (scaled) {
      if constexpr (std::is_integral_v<To>) {
        throw Error("alpha", "scaling (alpha != 1 or beta != 0) is for float16, bfloat16, float32, float64, "
                             "complex64 and complex128 outputs, not " + to);
      } else {
        using C = compute_t<To>;
        if constexpr (!is_complex<C>::value) {
          if (alpha.imag() != 0) throw Error("alpha", "has an imaginary part but the output " + to + " is real");
          if (beta.imag() != 0) throw Error("beta", "has an imaginary part but the output " + to + " is real");
          // NumPy casts a Python float to the array's type first (float16 too).
          const Scale<C> sc{widen(round_to<To>(static_cast<C>(alpha.real()))), widen(round_to<To>(static_cast<C>(beta.real())))};
          t->scale_.resize(sizeof sc);
          std::memcpy(t->scale_.data(), &sc, sizeof sc);
        } else {
          using R = typename C::value_type;
          const Scale<C> sc{C(static_cast<R>(alpha.real()), static_cast<R>(alpha.imag())),
                            C(static_cast<R>(beta.real()), static_cast<R>(beta.imag()))};
          t->scale_.resize(sizeof sc);
          std::memcpy(t->scale_.data(), &sc, sizeof sc);
        }
      }
    }
    with_type(from, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      from_known = true;
      if constexpr (std::is_integral_v<To>) {
        t->fn_ = row<From, To, false>;
      } else {
        t->fn_ = scaled ? row<From, To, true> : row<From, To, false>;
      }
    });
  });
  if (!to_known)
    throw Error(from == to ? "alpha" : "out_dtype",
                from == to ? "scaling needs a number dtype (float16, bfloat16, float32, float64, complex64, complex128), not " + to
                           : "\"" + to + "\" is not a number dtype gentt converts to (int8..uint64, float16, bfloat16, float32, "
                                         "float64, complex64, complex128)");
  if (!from_known)
    throw Error("dtype", "conversion needs a number dtype as input, not \"" + from + "\" (opaque bytesN elements are only moved)");
  t->text_ = from == to ? to : from + " -> " + to;
  if (scaled) t->text_ += ", out = " + complex_text(alpha) + " * x" + (beta != 0.0 ? " + " + complex_text(beta) + " * out" : "");
  return t;
}

}  // namespace gentt::engine
