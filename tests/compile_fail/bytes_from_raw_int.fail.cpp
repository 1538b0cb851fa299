// expect: conversion from 'int' to
// A raw number does not become bytes implicitly.
#include "contracts/units.h"

blis::units::Bytes page() {
  blis::units::Bytes b = 4096;
  return b;
}
