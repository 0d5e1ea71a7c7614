/* Fake IBM MQ 9.3.4 cmqc.h: only the lines mq-headers reads, laid out as IBM's are. */
 /* Command Levels */
 #define MQCMDL_LEVEL_933               933
 #define MQCMDL_LEVEL_934               934
 #define MQCMDL_CURRENT_LEVEL           934

 /* Structure Version Number */
 #define MQCSP_VERSION_1                1
 #define MQCSP_VERSION_2                2
 #define MQCSP_VERSION_3                3
 #define MQCSP_CURRENT_VERSION          3
