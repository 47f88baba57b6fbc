export const DepositScreen = () => <section data-screen="DepositScreen" />;
