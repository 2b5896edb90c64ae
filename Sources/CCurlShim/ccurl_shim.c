#include "ccurl_shim.h"
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
