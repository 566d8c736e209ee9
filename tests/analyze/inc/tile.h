#pragma once
#ifndef PAD
#define PAD 0
#endif
constexpr int TILE = 32;
