// The small languages inside netlist strings: instance names with index ranges
// ("cu[0..59]"), hierarchical paths ("chiplet[2].cu[5]"), path patterns for
// overrides ("chiplet[*].l2"), and index expressions in pattern bindings
// ("l1[i/4].in[i%4]"). Pure string handling, no registry and no SystemC.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

// One dot-separated part of a name: a base name and an optional bracket.
struct NameSegment {
  enum class Index {
    None,      // "xbar"
    Single,    // "cu[3]"
    Range,     // "cu[0..59]" (inclusive)
    Wildcard,  // "cu[*]" (patterns only)
    Expr,      // "cu[i/4]" (bindings only): `expr` is evaluated per value of i
  };
  std::string base;
  Index index = Index::None;
  int64_t first = 0, last = 0;  // Single: first == last
  std::string expr;             // Expr: the text between the brackets

  bool uses_variable() const { return index == Index::Expr; }
  int64_t count() const { return index == Index::Range ? last - first + 1 : 1; }
};

// Which bracket forms a caller accepts.
struct SegmentSyntax {
  bool ranges = true;
  bool wildcard = false;
  bool expressions = false;
};

// Parses "cu", "cu[3]", "cu[0..59]", "cu[*]", "cu[i+1]". Throws UserError with a
// message saying what was expected ("bad range \"5..2\": the first index ...").
NameSegment parse_segment(const std::string& text, SegmentSyntax syntax);

// Splits at dots outside brackets and parses each part.
std::vector<NameSegment> parse_segments(const std::string& text, SegmentSyntax syntax);

// "cu" + 3 -> "cu[3]".
std::string indexed_name(const std::string& base, int64_t index);

// The concrete names a segment stands for: "cu[0..2]" -> cu[0], cu[1], cu[2].
std::vector<std::string> expand_segment(const NameSegment& seg);

// True if a concrete segment text ("cu[3]") matches a pattern segment.
bool segment_matches(const NameSegment& pattern, const std::string& concrete);

// Splits a concrete name "cu[3]" into base and index (-1 without brackets).
std::pair<std::string, int64_t> split_index(const std::string& concrete);

// Evaluates an index expression over the variable i: integers, i, + - * / %,
// parentheses, with the usual precedence. Throws UserError on bad syntax,
// division by zero or a negative result.
int64_t eval_index_expr(const std::string& expr, int64_t i);

// Checks that an expression is well formed (evaluating it with i = 1).
void check_index_expr(const std::string& expr);

}  // namespace tessera
