#include "baselines.h"
