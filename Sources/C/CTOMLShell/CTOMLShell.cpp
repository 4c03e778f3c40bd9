#include <new>
#include "CTOMLShell.h"

extern "C" void ctoml_shell_release_cleared_table(void *table) { ::operator delete(table); }
