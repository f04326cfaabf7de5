// eigen/problem.cpp — complex numbers on command lines and the problems `ulibc eigen` solves.
#include "eigen/problem.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "io/file_io.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/prescribed_spectrum.hpp"
#include "sparse/tridiagonal_toeplitz.hpp"
#include "ulibc/error.hpp"

namespace ulibc::eigen {

namespace {

[[noreturn]] void bad_complex(const std::string& text, const std::string& why) {
  throw input_error(io::quoted(text) + " is not a complex number (" + why +
                    "; write a, bi, a+bi or a-bi, e.g. 1.2+0.4i, -3, 2i)");
}

// A real number filling all of s (from_chars: no leading '+', so a sign is taken here).
std::optional<double> whole_real(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.front() == '+' || s.front() == '-') return std::nullopt;  // one sign at most
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return negative ? -v : v;
}

// The imaginary coefficient before the trailing i: "", "+", "-" mean 1, 1, -1.
std::optional<double> imaginary_part(std::string_view s) {
  if (s.empty() || s == "+") return 1.0;
  if (s == "-") return -1.0;
  return whole_real(s);
}

std::vector<std::string> fields_of(const std::string& spec) {
  std::vector<std::string> out;
  std::stringstream in(spec);
  for (std::string f; std::getline(in, f, ':');) out.push_back(f);
  if (!spec.empty() && spec.back() == ':') out.emplace_back();
  return out;
}

sparse::Index order_of(const std::string& spec, const std::string& text) {
  sparse::Index n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n < 2)
    throw input_error("--generate " + spec + ": the order " + io::quoted(text) +
                      " must be a whole number of at least 2");
  return n;
}

Complex field_or(const std::vector<std::string>& f, std::size_t i, Complex fallback) {
  return i < f.size() ? parse_complex(f[i]) : fallback;
}

}  // namespace

Complex parse_complex(const std::string& text) {
  std::string_view s = text;
  if (s.empty()) bad_complex(text, "empty");
  const char last = s.back();
  Complex z;
  if (last != 'i' && last != 'j') {
    const auto re = whole_real(s);
    if (!re) bad_complex(text, "not a number");
    z = *re;
  } else {
    s.remove_suffix(1);
    // The sign that starts the imaginary part: the last + or - not at the front and not after an exponent's e.
    std::size_t split = std::string_view::npos;
    for (std::size_t k = s.size(); k-- > 1;)
      if ((s[k] == '+' || s[k] == '-') && s[k - 1] != 'e' && s[k - 1] != 'E') {
        split = k;
        break;
      }
    const auto re = split == std::string_view::npos ? std::optional<double>(0.0) : whole_real(s.substr(0, split));
    const auto im = imaginary_part(split == std::string_view::npos ? s : s.substr(split));
    if (!re || !im) bad_complex(text, "not a number");
    z = {*re, *im};
  }
  if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) bad_complex(text, "not finite");
  return z;
}

std::string complex_text(Complex z) {
  auto shortest = [](double v) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ec == std::errc() ? end : buf);
  };
  if (z.imag() == 0) return shortest(z.real());
  const std::string im = shortest(std::abs(z.imag())) + "i";
  if (z.real() == 0) return (z.imag() < 0 ? "-" : "") + im;
  return shortest(z.real()) + (z.imag() < 0 || std::signbit(z.imag()) ? "-" : "+") + im;
}

Problem generate(const std::string& raw) {
  const std::string spec = io::quoted(raw);  // as messages show it
  const std::vector<std::string> f = fields_of(raw);
  const std::string kind = f.empty() ? "" : f[0];
  auto arity = [&](std::size_t least, std::size_t most) {
    if (f.size() < least || f.size() > most)
      throw input_error("--generate " + spec + ": " + kind + " takes " + std::to_string(least - 1) + " to " +
                        std::to_string(most - 1) + " fields after its name");
  };
  try {
    if (kind == "convdiff2d") {
      arity(2, 5);
      const auto n = order_of(spec, f[1]);
      if (n > 46340) throw input_error("--generate " + spec + ": N x N exceeds the largest order");
      const auto s =
          sparse::shifted_convection_diffusion_2d(n, field_or(f, 2, 10), field_or(f, 3, 5), field_or(f, 4, 0));
      return {raw, sparse::kronecker_sum_matrix(s), sparse::kronecker_sum_eigenvalues(s)};
    }
    if (kind == "toeplitz") {
      arity(5, 5);
      const sparse::TridiagonalToeplitz t{order_of(spec, f[1]), parse_complex(f[2]), parse_complex(f[3]),
                                          parse_complex(f[4])};
      return {raw, sparse::tridiagonal_toeplitz_matrix(t), sparse::tridiagonal_toeplitz_eigenvalues(t)};
    }
    if (kind == "spectrum") {
      arity(2, 4);
      const auto n = order_of(spec, f[1]);
      sparse::PrescribedSpectrum p{{}, field_or(f, 2, 0.5), field_or(f, 3, 0.3)};
      p.eigenvalues.resize(static_cast<std::size_t>(n));
      for (sparse::Index k = 0; k < n; ++k) p.eigenvalues[k] = {double(k + 1), 0.5 * std::sin(double(k + 1))};
      return {raw, sparse::prescribed_spectrum_matrix(p), p.eigenvalues};
    }
  } catch (const Error& e) {
    if (std::string(e.what()).starts_with("--generate")) throw;
    throw input_error("--generate " + spec + ": " + e.what());
  }
  throw input_error("--generate " + spec + ": unknown kind " + io::quoted(kind) +
                    "; known: convdiff2d:N[:BX[:BY[:SHIFT]]], toeplitz:N:A:B:C, spectrum:N[:S[:T]]");
}

Problem read_problem(const std::string& path) { return {path, sparse::read_matrix_market_complex_file(path), {}}; }

}  // namespace ulibc::eigen
