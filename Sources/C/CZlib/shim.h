#include "zlib.h"
