/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* The unit tests compiled as C++: the header must work from C++ too. */
#include "test_unit.c"
