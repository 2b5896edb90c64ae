#include "ccurl_shim.h"
#include <pthread.h>
#include <stdlib.h>

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_share(CURL *handle, CURLSH *share) { return curl_easy_setopt(handle, CURLOPT_SHARE, share); }

CURLcode ccurl_setopt_write_callback(CURL *handle, ccurl_data_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, userdata);
}

CURLcode ccurl_setopt_header_callback(CURL *handle, ccurl_data_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_HEADERDATA, userdata);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode ccurl_getinfo_double(CURL *handle, CURLINFO info, double *value) { return curl_easy_getinfo(handle, info, value); }
CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(handle, info, value); }

/* One mutex per curl_lock_data value, owned together with the share. */
struct ccurl_locked_share { CURLSH *share; pthread_mutex_t mutexes[CURL_LOCK_DATA_LAST]; };

static void ccurl_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr) {
    (void)handle; (void)access;
    ccurl_locked_share *locked = userptr;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&locked->mutexes[data]);
}

static void ccurl_unlock(CURL *handle, curl_lock_data data, void *userptr) {
    (void)handle;
    ccurl_locked_share *locked = userptr;
    if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&locked->mutexes[data]);
}

ccurl_locked_share *ccurl_locked_share_new(void) {
    ccurl_locked_share *locked = calloc(1, sizeof(ccurl_locked_share));
    if (locked == NULL) return NULL;
    locked->share = curl_share_init();
    if (locked->share == NULL) { free(locked); return NULL; }
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&locked->mutexes[i], NULL);
    int failed = curl_share_setopt(locked->share, CURLSHOPT_USERDATA, (void *)locked) != CURLSHE_OK
        || curl_share_setopt(locked->share, CURLSHOPT_LOCKFUNC, ccurl_lock) != CURLSHE_OK
        || curl_share_setopt(locked->share, CURLSHOPT_UNLOCKFUNC, ccurl_unlock) != CURLSHE_OK
        || curl_share_setopt(locked->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK
        || curl_share_setopt(locked->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK;
    if (failed) {
        curl_share_cleanup(locked->share);
        for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&locked->mutexes[i]);
        free(locked);
        return NULL;
    }
    return locked;
}

CURLSH *ccurl_locked_share_handle(ccurl_locked_share *share) { return share ? share->share : NULL; }

CURLSHcode ccurl_locked_share_free(ccurl_locked_share *locked) {
    if (locked == NULL) return CURLSHE_OK;
    CURLSHcode code = curl_share_cleanup(locked->share);
    if (code != CURLSHE_OK) return code; /* still in use: keep everything alive */
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&locked->mutexes[i]);
    free(locked);
    return code;
}
