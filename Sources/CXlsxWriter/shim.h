#ifndef CXlsxWriter_SHIM_H
#define CXlsxWriter_SHIM_H
#include <xlsxwriter.h>
#endif
