/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * <linux/irqflags.h> of the Relacy kernel stand-in: the model has no
 * interrupts, so opening and closing them does nothing (only
 * coupled_linux_wait_for_interrupt() uses them, which no Relacy program
 * calls).
 */
#include "../kshim_relacy.h"

#ifndef raw_local_irq_enable
#define raw_local_irq_enable() ((void)0)
#endif
#ifndef raw_local_irq_disable
#define raw_local_irq_disable() ((void)0)
#endif
