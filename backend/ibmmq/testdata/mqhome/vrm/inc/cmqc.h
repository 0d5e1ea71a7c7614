/* Fake cmqc.h giving its version as MQ_VERSION, MQ_RELEASE, MQ_MODIFICATION. */
#define MQ_VERSION 9
#define MQ_RELEASE 4
#define MQ_MODIFICATION 0
#define MQCSP_CURRENT_VERSION 3
