// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// A port of the block pool that never says it was changed or where it came from.
#pragma once
