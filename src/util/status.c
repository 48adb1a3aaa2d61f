#include "hfilegen/status.h"

const char *hfg_strerror(int status) {
  switch (status) {
#define HFG_X_DESC(name, value, desc) \
  case value:                         \
    return desc;
    HFG_STATUS_LIST(HFG_X_DESC)
#undef HFG_X_DESC
  }
  return "unknown status";
}

const char *hfg_status_name(int status) {
  switch (status) {
#define HFG_X_NAME(name, value, desc) \
  case value:                         \
    return #name;
    HFG_STATUS_LIST(HFG_X_NAME)
#undef HFG_X_NAME
  }
  return "HFG_UNKNOWN";
}
