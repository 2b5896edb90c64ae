#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
/* Typed wrappers: curl_easy_setopt is variadic and cannot be called from Swift. */
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
#endif
