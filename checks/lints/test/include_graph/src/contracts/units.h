#pragma once
namespace contracts { using Bytes = long long; }
