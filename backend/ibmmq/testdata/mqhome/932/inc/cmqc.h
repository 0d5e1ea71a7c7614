/* Fake IBM MQ 9.3.2 cmqc.h: before MQCSP version 3 (tokens). */
 #define MQCMDL_LEVEL_932               932
 #define MQCMDL_CURRENT_LEVEL           932
 #define MQCSP_VERSION_1                1
 #define MQCSP_VERSION_2                2
 #define MQCSP_CURRENT_VERSION          2
