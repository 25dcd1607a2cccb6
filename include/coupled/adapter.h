/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter.h - picks the platform adapter at compile time.
 *
 * Exactly one adapter is compiled in, chosen by one definition:
 *
 *   COUPLED_ADAPTER_PTHREAD        adapters/pthread/coupled_adapter_pthread.h
 *   COUPLED_ADAPTER_LINUX          adapters/linux/coupled_adapter_linux.h
 *   COUPLED_ADAPTER_BAREMETAL_ARM  adapters/baremetal-arm/coupled_adapter_baremetal_arm.h
 *   COUPLED_ADAPTER_HEADER="x.h"   any other platform: one header of your own
 *   (none of these)                coupled/adapter_spin.h, freestanding spinning
 *
 * The adapter's directory must be on the include path (the CMake option
 * COUPLED_ADAPTER does both).  What an adapter provides, and when each hook is
 * called, is the contract in docs/adapters.md and in adapter_spin.h, the
 * reference implementation.
 */
#ifndef COUPLED_ADAPTER_H
#define COUPLED_ADAPTER_H

#if defined(COUPLED_ADAPTER_HEADER)
#include COUPLED_ADAPTER_HEADER
#elif defined(COUPLED_ADAPTER_PTHREAD)
#include "coupled_adapter_pthread.h"
#elif defined(COUPLED_ADAPTER_LINUX)
#include "coupled_adapter_linux.h"
#elif defined(COUPLED_ADAPTER_BAREMETAL_ARM)
#include "coupled_adapter_baremetal_arm.h"
#else
#include "adapter_spin.h"
#endif

#ifndef COUPLED_ADAPTER_NAME
#error "the selected coupled adapter does not define COUPLED_ADAPTER_NAME"
#endif

#endif /* COUPLED_ADAPTER_H */
