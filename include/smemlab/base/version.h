/* version.h: smemlab's version. */
#ifndef SMEMLAB_VERSION_H
#define SMEMLAB_VERSION_H
#define SMEMLAB_VERSION "0.1.0"
#endif
