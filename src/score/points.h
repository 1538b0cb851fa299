// Measured end-to-end points in the column format of aiconfigurator's silicon_sample.csv (design §11.7's
// ledger units stand in for by these rows until the ledger ingests them): one benchmark run of one
// deployment at one concurrency per row, with its measured TTFT and TPOT in milliseconds.
//
// The reader refuses a file whose header lacks a column of the format or has one it does not know, and
// every row that breaks the format, naming the line, the column, the value and the cause; it reports
// every such row at once. It reads the columns only: what a row means is decided by convert.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace blis::score {

class PointsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The columns of the format, in the source file's order.
const std::vector<std::string>& point_columns();

struct Point {
  int line = 0;  // 1-based line in the file
  std::string id;
  std::string data_source;  // silicon_data_source, verbatim
  // silicon_data_source read as "; "-separated items: key=value items by key, the rest verbatim in order.
  std::map<std::string, std::string> source_fields;
  std::vector<std::string> source_items;
  std::string backend, backend_version, model_path, system, precision, mode, gemm_quant_mode, moe_quant_mode;
  std::int64_t isl = 0, osl = 0;
  // Integer layout columns, by column name (batch_size, tp_size, ..., decode_moe_ep_size); absent when the
  // cell is empty.
  std::map<std::string, std::int64_t> ints;
  double ttft_ms = 0, tpot_ms = 0;

  std::optional<std::int64_t> get(const std::string& column) const;
};

// Reads the text of a points file; `name` stands for the file in messages.
std::vector<Point> read_points(std::string_view text, const std::string& name);
std::vector<Point> read_points_file(const std::string& path);

}  // namespace blis::score
