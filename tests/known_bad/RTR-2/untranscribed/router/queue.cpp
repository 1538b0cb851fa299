// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099; all of it.
int queue();
