#ifndef CArchive_SHIM_H
#define CArchive_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
