/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* <linux/compiler.h> of the Relacy kernel stand-in: everything is in kshim_relacy.h. */
#include "../kshim_relacy.h"
