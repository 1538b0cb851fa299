// The three plain objects an engine hands the cost model (design §6.1-6.3): the PoolPlan, the StepShape
// and the Transfer move. They are defined once, in schemas/plan/, and generated (INTERFACES.md "Ownership
// of shared pieces"), so every field is enumerable (schema/field_walk.h) and `blis price` can read them as
// documents; this header only gives them the names the design uses. Physical units only (SUB-16), no
// engine vocabulary (X2), and an absent field means "not stated" (SUB-1).
#pragma once

#include "schema/pool-plan.h"
#include "schema/step-shape.h"
#include "schema/transfer-move.h"

namespace blis::engine::plan {

using PoolPlan = blis::schema::PoolPlan;
using StepShape = blis::schema::StepShape;
// plan.Transfer: the move as the cost model receives it (an engine.Transfer's Move, design §6.3).
using Transfer = blis::schema::TransferMove;

}  // namespace blis::engine::plan
