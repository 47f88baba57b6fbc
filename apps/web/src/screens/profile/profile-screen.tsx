export const ProfileScreen = () => <section data-screen="ProfileScreen" />;
