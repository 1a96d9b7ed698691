from typing import Dict
from header import Declarations
def files(found: Declarations) -> Dict[str, str]:
    return {}
