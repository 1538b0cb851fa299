// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// A port of the radix cache that does not say what it changed.
int match_prefix();
