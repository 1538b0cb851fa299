// The points reader (src/score/points.h): a well-formed file read column by column, and each malformed
// row refused by its line, column and value, beside its accepted twin.
#include <gtest/gtest.h>

#include <string>

#include "score/points.h"

namespace blis::score {
namespace {

std::string header() {
  std::string h;
  for (const auto& c : point_columns()) h += (h.empty() ? "" : ",") + c;
  return h + "\n";
}

// A well-formed vLLM agg row; `over` replaces one column's value.
std::string row(const std::string& id, const std::string& column = "", const std::string& value = "") {
  std::string r;
  bool first = true;
  for (const auto& c : point_columns()) {
    std::string v;
    if (c == "id") v = id;
    else if (c == "silicon_data_source") v = "db-dump; silicon_concurrency=8; vllm/vllm-openai:v0.19.0-cu130";
    else if (c == "backend") v = "vllm";
    else if (c == "backend_version") v = "0.19.0";
    else if (c == "model_path") v = "MiniMaxAI/MiniMax-M2.5";
    else if (c == "system") v = "h200_sxm";
    else if (c == "precision" || c == "gemm_quant_mode" || c == "moe_quant_mode") v = "fp8";
    else if (c == "mode") v = "agg";
    else if (c == "isl") v = "1024";
    else if (c == "osl") v = "128";
    else if (c == "batch_size") v = "8";
    else if (c == "tp_size" || c == "moe_tp_size") v = "4";
    else if (c == "pp_size" || c == "attention_dp_size" || c == "moe_ep_size") v = "1";
    else if (c == "silicon_ttft_ms") v = "972.31";
    else if (c == "silicon_tpot_ms") v = "33.44";
    if (c == column) v = value;
    r += (first ? "" : ",") + v;
    first = false;
  }
  return r + "\n";
}

std::string refusal(const std::string& text) {
  try {
    read_points(text, "pts.csv");
  } catch (const PointsError& e) {
    return e.what();
  }
  return "";
}

TEST(Points, ReadsEveryColumn) {
  const auto pts = read_points(header() + row("a") + row("b", "attention_dp_size", ""), "pts.csv");
  ASSERT_EQ(pts.size(), 2u);
  const Point& p = pts[0];
  EXPECT_EQ(p.id, "a");
  EXPECT_EQ(p.line, 2);
  EXPECT_EQ(p.backend, "vllm");
  EXPECT_EQ(p.backend_version, "0.19.0");
  EXPECT_EQ(p.model_path, "MiniMaxAI/MiniMax-M2.5");
  EXPECT_EQ(p.isl, 1024);
  EXPECT_EQ(p.osl, 128);
  EXPECT_EQ(p.get("tp_size"), 4);
  EXPECT_EQ(p.get("prefill_tp_size"), std::nullopt);
  EXPECT_DOUBLE_EQ(p.ttft_ms, 972.31);
  EXPECT_DOUBLE_EQ(p.tpot_ms, 33.44);
  EXPECT_EQ(p.source_fields.at("silicon_concurrency"), "8");
  ASSERT_EQ(p.source_items.size(), 2u);
  EXPECT_EQ(p.source_items[1], "vllm/vllm-openai:v0.19.0-cu130");
  EXPECT_EQ(pts[1].line, 3);
  EXPECT_EQ(pts[1].get("attention_dp_size"), std::nullopt);
}

TEST(Points, QuotedFieldWithComma) {
  const std::string r = row("q", "silicon_data_source", "\"db,dump\"\"x; silicon_concurrency=8\"");
  const auto pts = read_points(header() + r, "pts.csv");
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_EQ(pts[0].data_source, "db,dump\"x; silicon_concurrency=8");
  EXPECT_EQ(pts[0].source_fields.at("silicon_concurrency"), "8");
  // A quote inside an unquoted field, or text after a closing quote, is refused.
  EXPECT_THROW(read_points(header() + row("r", "silicon_data_source", "\"db\"x"), "pts.csv"), PointsError);
}

struct Bad {
  const char* column;
  const char* value;
  const char* says;
};

TEST(Points, MalformedRowsRefusedByColumnAndValue) {
  const Bad cases[] = {
      {"isl", "abc", "column 'isl': value 'abc' is not a positive integer"},
      {"osl", "0", "column 'osl': value '0' is not a positive integer"},
      {"tp_size", "-1", "column 'tp_size': value '-1' is neither empty nor a non-negative integer"},
      {"moe_ep_size", "4.5", "column 'moe_ep_size': value '4.5' is neither empty"},
      {"silicon_ttft_ms", "", "column 'silicon_ttft_ms': value '' is not a positive finite number"},
      {"silicon_tpot_ms", "nan", "column 'silicon_tpot_ms': value 'nan' is not a positive finite number"},
      {"silicon_tpot_ms", "-3", "column 'silicon_tpot_ms': value '-3'"},
      {"mode", "mixed", "column 'mode': value 'mixed' is neither agg nor disagg"},
      {"backend", "vLLM", "column 'backend': value 'vLLM' is not a backend name"},
      {"model_path", "", "column 'model_path': value '' is empty"},
      {"system", "", "column 'system': value '' is empty"},
      {"id", "", "column 'id': value '' is empty"},
      {"silicon_data_source", "x; silicon_concurrency=many",
       "column 'silicon_data_source': value 'x; silicon_concurrency=many' states silicon_concurrency='many'"},
  };
  for (const auto& c : cases) {
    const std::string msg = refusal(header() + row("good") + row("bad", c.column, c.value));
    EXPECT_NE(msg.find(std::string("pts.csv:3: ") + c.says), std::string::npos) << c.column << ": " << msg;
    EXPECT_EQ(msg.find("pts.csv:2:"), std::string::npos) << "the good row is not refused: " << msg;
  }
  // The accepted twin of each: the same column with a well-formed value.
  EXPECT_EQ(refusal(header() + row("good") + row("twin", "tp_size", "")), "");
  EXPECT_EQ(refusal(header() + row("good") + row("twin", "mode", "disagg")), "");
  EXPECT_EQ(refusal(header() + row("good") + row("twin", "silicon_tpot_ms", "1e-3")), "");
}

TEST(Points, EveryBadRowReportedAtOnce) {
  const std::string msg = refusal(header() + row("a", "isl", "x") + row("b") + row("c", "osl", "y"));
  EXPECT_NE(msg.find("pts.csv:2: column 'isl'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pts.csv:4: column 'osl'"), std::string::npos) << msg;
}

TEST(Points, RowShapeAndIds) {
  std::string short_row = row("s");
  short_row.erase(short_row.rfind(','));
  short_row += "\n";
  EXPECT_NE(refusal(header() + short_row).find("pts.csv:2: 33 fields where the header has 34"), std::string::npos);
  EXPECT_NE(refusal(header() + row("d") + row("d")).find("pts.csv:3: column 'id': value 'd' repeats"), std::string::npos);
  EXPECT_NE(refusal(header() + "\"open,quote\n").find("pts.csv:2: a quote"), std::string::npos);
}

TEST(Points, HeaderRefusedByColumn) {
  std::string h = header();
  std::string missing = h;
  missing.replace(missing.find(",silicon_tpot_ms"), std::string(",silicon_tpot_ms").size(), "");
  EXPECT_NE(refusal(missing).find("column 'silicon_tpot_ms' is missing"), std::string::npos);
  std::string extra = h;
  extra.insert(extra.size() - 1, ",colour");
  EXPECT_NE(refusal(extra).find("column 'colour' is not a column of the points format"), std::string::npos);
  EXPECT_NE(refusal("").find("no header"), std::string::npos);
  EXPECT_EQ(refusal(h), "");  // the accepted twin: the header alone, no rows
}

}  // namespace
}  // namespace blis::score
