import sys

from vadaorchestra.eval.harness import main

sys.exit(main())
