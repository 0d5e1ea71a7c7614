// Package mqfmt holds IBM MQ wire formats and their names, with no I/O: the MQMD,
// MQRFH2, MQDLH and MQXQH structures in both byte orders, the header chain that
// links them, the names and meanings of MQ constants, body decoding by CCSID,
// terminal sanitising, and the dmpmqmsg (qload) text file format.
//
// Every decoder is strict: it checks StrucIds, versions and lengths against the
// bytes it was given and returns a *DecodeError naming the byte offset instead of
// guessing. Nothing here panics on hostile input or allocates more than the input
// justifies.
package mqfmt
