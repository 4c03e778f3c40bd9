#include "libinput.h"
