// forms.md's data formats: stored bytes (integer ceilings, scale blocks), b(x), compute data types, and
// the refusals.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cost/format.h"

namespace {

using blis::cost::compute_dtype;
using blis::cost::data_format;

std::int64_t stored(const char* f, std::int64_t n) { return data_format(f).stored_bytes(n).value(); }

TEST(Format, StoredBytesCountPayloadAndScaleBlocks) {
  EXPECT_EQ(stored("bf16", 3), 6);
  EXPECT_EQ(stored("fp16", 0), 0);
  EXPECT_EQ(stored("tf32", 5), 20);
  EXPECT_EQ(stored("fp32", 5), 20);
  EXPECT_EQ(stored("fp8", 5), 5);
  EXPECT_EQ(stored("int8", 7), 7);
  EXPECT_EQ(stored("fp8_block", 128), 128 + 4);
  EXPECT_EQ(stored("fp8_block", 129), 129 + 8);
  EXPECT_EQ(stored("nvfp4", 16), 8 + 1);
  EXPECT_EQ(stored("nvfp4", 17), 9 + 2);  // ceil(68 / 8) payload, two blocks of one byte
  EXPECT_EQ(stored("mxfp4", 32), 16 + 1);
  EXPECT_EQ(stored("mxfp4", 1), 1 + 1);
  EXPECT_EQ(stored("int4_group128", 128), 64 + 2);
  EXPECT_EQ(stored("int4_group128", 129), 65 + 4);
}

TEST(Format, BytesPerElementIsPayloadPlusScaleShare) {
  EXPECT_DOUBLE_EQ(data_format("bf16").bytes_per_element(), 2.0);
  EXPECT_DOUBLE_EQ(data_format("tf32").bytes_per_element(), 4.0);
  EXPECT_DOUBLE_EQ(data_format("fp8").bytes_per_element(), 1.0);
  EXPECT_DOUBLE_EQ(data_format("fp8_block").bytes_per_element(), 1.0 + 32.0 / 1024.0);
  EXPECT_DOUBLE_EQ(data_format("nvfp4").bytes_per_element(), 0.5 + 8.0 / 128.0);
  EXPECT_DOUBLE_EQ(data_format("mxfp4").bytes_per_element(), 0.5 + 8.0 / 256.0);
  EXPECT_DOUBLE_EQ(data_format("int4_group128").bytes_per_element(), 0.5 + 16.0 / 1024.0);
  // b(x) times a whole number of blocks equals the stored bytes.
  EXPECT_DOUBLE_EQ(data_format("nvfp4").bytes_per_element() * 160, static_cast<double>(stored("nvfp4", 160)));
}

TEST(Format, ComputeDtypeFollowsFormsMd) {
  auto dt = [](const char* w, const char* a) { return compute_dtype(data_format(w), data_format(a)); };
  EXPECT_EQ(dt("bf16", "bf16"), "bf16");
  EXPECT_EQ(dt("fp16", "fp16"), "fp16");
  EXPECT_EQ(dt("tf32", "tf32"), "tf32");
  EXPECT_EQ(dt("fp8", "bf16"), "fp8");
  EXPECT_EQ(dt("fp8_block", "bf16"), "fp8");
  EXPECT_EQ(dt("int8", "int8"), "int8");
  EXPECT_EQ(dt("nvfp4", "nvfp4"), "fp4");
  EXPECT_EQ(dt("mxfp4", "bf16"), "fp4");
  EXPECT_EQ(dt("int4_group128", "bf16"), "bf16");  // weight-only: the activation's
  EXPECT_EQ(dt("int4_group128", "fp16"), "fp16");
}

TEST(Format, RefusalsNameTheValue) {
  try {
    data_format("fp6");
    FAIL() << "an unknown format was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown data format 'fp6'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(data_format("bf16").stored_bytes(-1), std::invalid_argument);
  EXPECT_THROW(data_format("fp32").stored_bytes(std::int64_t{1} << 62), std::overflow_error);
  EXPECT_THROW(compute_dtype(data_format("fp32"), data_format("bf16")), std::invalid_argument);
  EXPECT_THROW(compute_dtype(data_format("int4_group128"), data_format("int4_group128")), std::invalid_argument);
}

}  // namespace
