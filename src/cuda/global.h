/* Module variables on the CUDA backend (global.c). */
#ifndef LAT_CUDA_GLOBAL_H
#define LAT_CUDA_GLOBAL_H

#include "backend.h"

lat_status lat__cuda_module_get_global(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                       size_t *bytes);

#endif
