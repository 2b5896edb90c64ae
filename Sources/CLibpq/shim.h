#ifndef CLibpq_SHIM_H
#define CLibpq_SHIM_H
#include <libpq-fe.h>
#endif
