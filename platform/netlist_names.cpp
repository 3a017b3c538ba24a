#include "platform/netlist_names.h"

#include <cctype>
#include <cstdint>

#include "platform/errors.h"
#include "platform/stats.h"

namespace tessera {
namespace {

// Ranges bigger than this are almost certainly typos ("cu[0..60000000]") and
// would exhaust memory before any error could be reported.
constexpr int64_t kMaxRangeCount = 65536;
constexpr size_t kMaxExprLength = 200;

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

std::optional<int64_t> parse_index(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Recursive-descent evaluator for index expressions.
class ExprParser {
 public:
  ExprParser(const std::string& text, int64_t i) : s_(text), i_(i) {}

  int64_t parse() {
    if (s_.size() > kMaxExprLength) fail("it is longer than 200 characters");
    int64_t v = sum();
    skip();
    if (pos_ != s_.size()) fail(std::string("unexpected '") + s_[pos_] + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw UserError("bad index expression \"" + s_ + "\": " + why +
                    "; expected integers, i, + - * / % and parentheses");
  }
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool take(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  int64_t checked(bool overflow, int64_t v) const {
    if (overflow) fail("the value overflows");
    return v;
  }
  // The builtins write their result through a pointer, so the overflow flag must
  // be computed before the result is read (argument order is unspecified).
  int64_t add(int64_t a, int64_t b) const {
    int64_t r = 0;
    const bool o = __builtin_add_overflow(a, b, &r);
    return checked(o, r);
  }
  int64_t sub(int64_t a, int64_t b) const {
    int64_t r = 0;
    const bool o = __builtin_sub_overflow(a, b, &r);
    return checked(o, r);
  }
  int64_t mul(int64_t a, int64_t b) const {
    int64_t r = 0;
    const bool o = __builtin_mul_overflow(a, b, &r);
    return checked(o, r);
  }
  int64_t sum() {
    int64_t v = product();
    for (;;) {
      if (take('+')) {
        v = add(v, product());
      } else if (take('-')) {
        v = sub(v, product());
      } else {
        return v;
      }
    }
  }
  int64_t product() {
    int64_t v = atom();
    for (;;) {
      if (take('*')) {
        v = mul(v, atom());
      } else if (skip(), pos_ < s_.size() && (s_[pos_] == '/' || s_[pos_] == '%')) {
        const bool modulo = s_[pos_++] == '%';
        int64_t rhs = atom();
        if (rhs == 0) fail("division by zero");
        if (rhs == -1 && v == INT64_MIN) fail("the value overflows");
        v = modulo ? v % rhs : v / rhs;
      } else {
        return v;
      }
    }
  }
  int64_t atom() {
    if (++depth_ > 32) fail("parentheses nest too deeply");
    skip();
    int64_t v = 0;
    if (take('(')) {
      v = sum();
      if (!take(')')) fail("missing ')'");
    } else if (take('-')) {
      v = sub(0, atom());
    } else if (pos_ < s_.size() && s_[pos_] == 'i') {
      ++pos_;
      v = i_;
    } else if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      size_t start = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      auto n = parse_index(s_.substr(start, pos_ - start));
      if (!n) fail("number too large");
      v = *n;
    } else {
      fail(pos_ < s_.size() ? std::string("unexpected '") + s_[pos_] + "'" : "it ends too early");
    }
    --depth_;
    return v;
  }

  const std::string& s_;
  int64_t i_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

NameSegment parse_segment(const std::string& text, SegmentSyntax syntax) {
  NameSegment seg;
  const size_t open = text.find('[');
  seg.base = text.substr(0, open);
  if (!is_identifier(seg.base))
    throw UserError("bad name \"" + text +
                    "\": expected a name of letters, digits, '_' or '-' starting with a letter, "
                    "optionally followed by [N] or [A..B]");
  if (open == std::string::npos) return seg;
  if (text.back() != ']' || text.find('[', open + 1) != std::string::npos ||
      text.find(']') != text.size() - 1)
    throw UserError("bad name \"" + text + "\": expected one bracket at the end, such as cu[3] or cu[0..7]");
  const std::string inside = text.substr(open + 1, text.size() - open - 2);
  const size_t dots = inside.find("..");
  if (inside == "*") {
    if (!syntax.wildcard) throw UserError("bad name \"" + text + "\": [*] is allowed only in overrides");
    seg.index = NameSegment::Index::Wildcard;
    return seg;
  }
  if (dots != std::string::npos) {
    if (!syntax.ranges) throw UserError("bad name \"" + text + "\": a range is not allowed here");
    auto a = parse_index(inside.substr(0, dots));
    auto b = parse_index(inside.substr(dots + 2));
    if (!a || !b)
      throw UserError("bad range \"" + inside + "\" in \"" + text +
                      "\": expected two non-negative integers such as 0..7");
    if (*a > *b)
      throw UserError("bad range \"" + inside + "\" in \"" + text +
                      "\": the first index is greater than the last");
    if (*b - *a + 1 > kMaxRangeCount)
      throw UserError("bad range \"" + inside + "\" in \"" + text + "\": more than 65536 elements");
    seg.index = NameSegment::Index::Range;
    seg.first = *a;
    seg.last = *b;
    return seg;
  }
  if (auto n = parse_index(inside)) {
    seg.index = NameSegment::Index::Single;
    seg.first = seg.last = *n;
    return seg;
  }
  if (syntax.expressions && inside.find('i') != std::string::npos) {
    check_index_expr(inside);
    seg.index = NameSegment::Index::Expr;
    seg.expr = inside;
    return seg;
  }
  throw UserError("bad index \"" + inside + "\" in \"" + text + "\": expected N or A..B" +
                  std::string(syntax.wildcard ? " or *" : "") +
                  (syntax.expressions ? " or an expression in i such as i/4" : ""));
}

std::vector<NameSegment> parse_segments(const std::string& text, SegmentSyntax syntax) {
  std::vector<NameSegment> out;
  for (const auto& part : split_path(text)) out.push_back(parse_segment(part, syntax));
  return out;
}

std::string indexed_name(const std::string& base, int64_t index) {
  return base + "[" + std::to_string(index) + "]";
}

std::vector<std::string> expand_segment(const NameSegment& seg) {
  switch (seg.index) {
    case NameSegment::Index::None: return {seg.base};
    case NameSegment::Index::Single: return {indexed_name(seg.base, seg.first)};
    case NameSegment::Index::Range: {
      std::vector<std::string> out;
      for (int64_t i = seg.first; i <= seg.last; ++i) out.push_back(indexed_name(seg.base, i));
      return out;
    }
    default: throw std::logic_error("expand_segment: pattern segment " + seg.base);
  }
}

std::pair<std::string, int64_t> split_index(const std::string& concrete) {
  const size_t open = concrete.find('[');
  if (open == std::string::npos || concrete.back() != ']') return {concrete, -1};
  auto n = parse_index(concrete.substr(open + 1, concrete.size() - open - 2));
  return {concrete.substr(0, open), n ? *n : -1};
}

bool segment_matches(const NameSegment& pattern, const std::string& concrete) {
  auto [base, index] = split_index(concrete);
  if (base != pattern.base) return false;
  switch (pattern.index) {
    case NameSegment::Index::None: return index < 0;
    case NameSegment::Index::Single: return index == pattern.first;
    case NameSegment::Index::Range: return index >= pattern.first && index <= pattern.last;
    case NameSegment::Index::Wildcard: return index >= 0;
    case NameSegment::Index::Expr: return false;
  }
  return false;
}

int64_t eval_index_expr(const std::string& expr, int64_t i) {
  int64_t v = ExprParser(expr, i).parse();
  if (v < 0)
    throw UserError("index expression \"" + expr + "\" gives " + std::to_string(v) + " for i=" +
                    std::to_string(i) + "; indices must be non-negative");
  return v;
}

void check_index_expr(const std::string& expr) {
  // Syntax only: a division by zero for one value of i ("i/(i-1)") is reported
  // when the binding is expanded, so the check passes if either trial works.
  try {
    ExprParser(expr, 1).parse();
  } catch (const UserError&) {
    ExprParser(expr, 2).parse();
  }
}

}  // namespace tessera
