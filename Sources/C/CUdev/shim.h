#include "libudev.h"
