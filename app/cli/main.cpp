#include <iostream>
int main() { std::cout << "iso3dfd: under construction\n"; return 0; }
