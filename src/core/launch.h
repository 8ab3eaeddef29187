#ifndef LAT_LAUNCH_H
#define LAT_LAUNCH_H

#include "core.h"

/* Checks kernel and desc and the dimensions against the device's limits, and fills the
 * normalised launch. `fn` names the public function in messages. */
lat_status lat__launch_prepare(lat_kernel *kernel, const lat_launch_desc *desc,
                               lat__launch *out);

#endif
