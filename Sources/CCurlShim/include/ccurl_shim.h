#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <stddef.h>
/* Typed wrappers: curl_easy_setopt, curl_easy_getinfo and curl_share_setopt are variadic and
   cannot be called from Swift. Each wrapper passes exactly one argument of the documented type. */

/* A write or header callback: (data, size, count, userdata) -> bytes consumed. */
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *userdata);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_share(CURL *handle, CURLSH *share);
/* Sets CURLOPT_WRITEFUNCTION + CURLOPT_WRITEDATA. */
CURLcode ccurl_setopt_write_callback(CURL *handle, ccurl_data_callback callback, void *userdata);
/* Sets CURLOPT_HEADERFUNCTION + CURLOPT_HEADERDATA. */
CURLcode ccurl_setopt_header_callback(CURL *handle, ccurl_data_callback callback, void *userdata);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

/* A share handle sharing DNS and TLS sessions, with pthread mutex lock callbacks installed so
   several threads may use it at once. Owns the CURLSH and its mutexes. */
typedef struct ccurl_locked_share ccurl_locked_share;
/* Returns NULL on failure. Free with ccurl_locked_share_free once no easy handle uses it. */
ccurl_locked_share *ccurl_locked_share_new(void);
/* The CURLSH to pass to ccurl_setopt_share. */
CURLSH *ccurl_locked_share_handle(ccurl_locked_share *share);
/* Cleans up the share and frees its mutexes; returns curl_share_cleanup's code (freed only on CURLSHE_OK). */
CURLSHcode ccurl_locked_share_free(ccurl_locked_share *share);

#endif
