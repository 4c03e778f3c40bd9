#include "xf86drm.h"
#include "xf86drmMode.h"
#include "drm_fourcc.h"
