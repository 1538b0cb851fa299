// A public header (the record lists it): each function it declares in blis::cost is an entry point.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/engine/plan.h"
#include "cost/coefficients.h"

namespace blis::cost {

struct StepContext {
  std::optional<std::string> workload;  // the workload's name: a catalog handle
};

struct Tuning {
  std::optional<std::string> workload;
  int block_size = 16;  // an engine decision carried in a context struct
};

double price_step(const Coefficients& coefficients, const engine::plan::PoolPlan& plan,  // near-miss: plan and registry
                  const engine::plan::StepShape& step, const StepContext& context = {});  // near-miss: a context of names
double price_layers(std::span<const schema::PoolPlanLoweredLayer> layers,  // near-miss: generated parts of the plan
                    const std::vector<engine::plan::StepShape>& steps);    // near-miss: a list of steps
double price_for(const engine::plan::PoolPlan& plan, std::string_view workload);  // near-miss: a workload by name
double price_blocks(const engine::plan::PoolPlan& plan, int block_size);  // expect: cost::price_blocks takes 'block_size' (int), which is not a plan, step shape, transfer or catalog or registry handle
double price_on(const engine::plan::PoolPlan& plan, const std::string& backend);  // expect: cost::price_on takes 'backend' (std::string), which is not a plan, step shape, transfer or catalog or registry handle (that type passes only as: chip, device, fabric, model, network, workload)
double price_tuned(const engine::plan::PoolPlan& plan, const Tuning& tuning);  // expect: cost::price_tuned takes 'tuning' (Tuning), whose field 'block_size' (int) is not a plan, step shape, transfer or catalog or registry handle

class Pricer {
 public:
  explicit Pricer(const Coefficients& coefficients);  // near-miss: built from the registry
  explicit Pricer(bool eager);  // expect: cost::Pricer::Pricer takes 'eager' (bool), which is not a plan, step shape, transfer or catalog or registry handle
  static Pricer padded(const Coefficients& coefficients, const std::vector<long>* sizes);  // expect: cost::Pricer::padded takes 'sizes' (long), which is not a plan, step shape, transfer or catalog or registry handle
  double price(double scale) const;  // near-miss: a query of a value already built
};

namespace detail {
double scaled(double seconds, double factor);  // near-miss: internal to the cost model
}  // namespace detail

}  // namespace blis::cost
