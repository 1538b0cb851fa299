// Fixture of blis-cost-public-inputs (SUB-6): this directory is a small repository. Stand-ins for the plan
// contract (the real one wraps generated types, which a fixture cannot include).
#pragma once

namespace blis::schema {
struct PoolPlanLoweredLayer {};
struct PoolPlan {};
struct StepShape {};
struct TransferMove {};
}  // namespace blis::schema

namespace blis::engine::plan {
using PoolPlan = blis::schema::PoolPlan;
using StepShape = blis::schema::StepShape;
using Transfer = blis::schema::TransferMove;
}  // namespace blis::engine::plan
